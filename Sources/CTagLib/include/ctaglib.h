#pragma once
#ifdef __cplusplus
extern "C" {
#endif
// Placeholder; the TagLib shim is being written.
int ctl_version(void);
#ifdef __cplusplus
}
#endif
