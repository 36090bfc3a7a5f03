// BoomicMedia (being written).
