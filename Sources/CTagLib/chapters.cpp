// An ID3v2 tag's chapters (CHAP frames, ordered by the CTOC table of contents), as ctaglib.h says.
#include "file.h"

#include <algorithm>
#include <map>
#include <set>

#include <taglib/chapterframe.h>
#include <taglib/tableofcontentsframe.h>
#include <taglib/textidentificationframe.h>

using namespace TagLib;

namespace ctaglib {

namespace {

/// Element ids compare without the NUL terminator some writers leave in them.
std::string idOf(const ByteVector &raw) {
    std::string id(raw.data(), raw.size());
    while (!id.empty() && id.back() == '\0') id.pop_back();
    return id;
}

Chapter chapterOf(const ID3v2::ChapterFrame *frame) {
    Chapter c;
    c.id = idOf(frame->elementID());
    c.start = frame->startTime();
    c.end = frame->endTime();
    c.startOffset = frame->startOffset();
    c.endOffset = frame->endOffset();
    for (auto *embedded : frame->embeddedFrameList("TIT2")) {
        auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(embedded);
        if (text == nullptr) continue;
        // A title of several strings (ID3v2.4's NUL-separated list) reads as one line.
        std::string title = text->fieldList().toString(" / ").to8Bit(true);
        if (!title.empty()) {
            c.title = title;
            c.hasTitle = true;
            break;
        }
    }
    return c;
}

/// Adds the chapters `toc` lists, in its order, descending into the tables it lists; each
/// chapter once, each table once (a table listing itself or a loop of tables ends there).
void walk(const ID3v2::TableOfContentsFrame *toc,
          const std::map<std::string, const ID3v2::ChapterFrame *> &chapters,
          const std::map<std::string, const ID3v2::TableOfContentsFrame *> &tables,
          std::set<std::string> &seen, std::vector<Chapter> &out) {
    if (!seen.insert("\x01toc:" + idOf(toc->elementID())).second) return;
    for (const auto &child : toc->childElements()) {
        if (out.size() >= kMaxChapters) return;
        std::string id = idOf(child);
        auto chapter = chapters.find(id);
        if (chapter != chapters.end()) {
            if (seen.insert(id).second) out.push_back(chapterOf(chapter->second));
            continue;
        }
        auto table = tables.find(id);
        if (table != tables.end()) walk(table->second, chapters, tables, seen, out);
    }
}

} // namespace

void loadChapters(ctl_file *f) {
    if (f->chaptersLoaded) return;
    f->chaptersLoaded = true;
    f->chapters.clear();
    ID3v2::Tag *tag = id3v2TagOf(f, false);
    if (tag == nullptr) return;
    const auto &frames = tag->frameListMap();
    auto chapFrames = frames.find("CHAP");
    if (chapFrames == frames.end() || chapFrames->second.isEmpty()) return;

    // Chapters by id (the first of a repeated id), and in the tag's order.
    std::map<std::string, const ID3v2::ChapterFrame *> byID;
    std::vector<const ID3v2::ChapterFrame *> inTagOrder;
    for (auto *frame : chapFrames->second) {
        auto *chap = dynamic_cast<const ID3v2::ChapterFrame *>(frame);
        if (chap == nullptr) continue;
        if (byID.emplace(idOf(chap->elementID()), chap).second) inTagOrder.push_back(chap);
    }
    std::map<std::string, const ID3v2::TableOfContentsFrame *> tables;
    const ID3v2::TableOfContentsFrame *top = nullptr;
    auto tocFrames = frames.find("CTOC");
    if (tocFrames != frames.end()) {
        for (auto *frame : tocFrames->second) {
            auto *toc = dynamic_cast<const ID3v2::TableOfContentsFrame *>(frame);
            if (toc == nullptr) continue;
            tables.emplace(idOf(toc->elementID()), toc);
            if (top == nullptr && toc->isTopLevel()) top = toc;
        }
    }

    std::set<std::string> seen;
    if (top != nullptr) walk(top, byID, tables, seen, f->chapters);
    // Chapters no table lists (or every chapter, with no table) follow by start time, each
    // keeping the tag's order among equal starts.
    std::vector<Chapter> rest;
    for (auto *chap : inTagOrder) {
        if (seen.count(idOf(chap->elementID())) == 0) rest.push_back(chapterOf(chap));
    }
    std::stable_sort(rest.begin(), rest.end(),
                     [](const Chapter &a, const Chapter &b) { return a.start < b.start; });
    for (auto &c : rest) {
        if (f->chapters.size() >= kMaxChapters) break;
        f->chapters.push_back(std::move(c));
    }
}

} // namespace ctaglib

extern "C" {

int ctl_chapter_count(ctl_file *file) {
    if (!ctaglib::usable(file)) return 0;
    try {
        ctaglib::loadChapters(file);
        return static_cast<int>(file->chapters.size());
    } catch (...) {
        return 0;
    }
}

int ctl_chapter_at(ctl_file *file, int index, ctl_chapter *out) {
    if (!ctaglib::usable(file) || out == nullptr || index < 0) return 0;
    try {
        ctaglib::loadChapters(file);
        if (static_cast<size_t>(index) >= file->chapters.size()) return 0;
        const ctaglib::Chapter &c = file->chapters[static_cast<size_t>(index)];
        out->element_id = c.id.c_str();
        out->title = c.hasTitle ? c.title.c_str() : nullptr;
        out->start_ms = c.start;
        out->end_ms = c.end;
        out->start_offset = c.startOffset;
        out->end_offset = c.endOffset;
        return 1;
    } catch (...) {
        return 0;
    }
}

} // extern "C"
