// Raw TagLib read speed, the reference for boomic's first import (DESIGN §7).
//
//   taglib_read LISTFILE [THREADS] [basic|props]
//
// LISTFILE has one path a line. Each thread opens its share of the files with
// TagLib::FileRef (audio properties, Average accuracy) and reads what an importer needs:
// the basic tag (title, artist, album, year, track, genre), and in "props" mode (the default)
// the whole PropertyMap too (albumartist, disc, composer, multi-valued fields), plus length,
// sample rate, channels and bitrate. Prints one line: files seconds files_per_s checksum.
#include <taglib/audioproperties.h>
#include <taglib/fileref.h>
#include <taglib/tag.h>
#include <taglib/tpropertymap.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

static unsigned long readOne(const std::string &path, bool props) {
  TagLib::FileRef f(path.c_str(), true, TagLib::AudioProperties::Average);
  if (f.isNull()) return 0;
  unsigned long sum = 1;
  if (TagLib::Tag *t = f.tag()) {
    sum += t->title().size() + t->artist().size() + t->album().size() + t->genre().size();
    sum += t->year() + t->track();
  }
  if (props) {
    TagLib::PropertyMap m = f.file()->properties();
    for (auto it = m.begin(); it != m.end(); ++it)
      for (auto &v : it->second) sum += v.size();
  }
  if (TagLib::AudioProperties *a = f.audioProperties())
    sum += a->lengthInMilliseconds() + a->sampleRate() + a->channels() + a->bitrate();
  return sum;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s LISTFILE [THREADS] [basic|props]\n", argv[0]);
    return 2;
  }
  std::vector<std::string> paths;
  std::ifstream in(argv[1]);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) paths.push_back(line);
  int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  if (threads < 1) threads = 1;
  bool props = !(argc > 3 && std::strcmp(argv[3], "basic") == 0);

  std::atomic<unsigned long> checksum{0}, failed{0};
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  size_t n = paths.size();
  for (int t = 0; t < threads; t++) {
    pool.emplace_back([&, t] {
      size_t lo = n * t / threads, hi = n * (t + 1) / threads;
      unsigned long s = 0, bad = 0;
      for (size_t i = lo; i < hi; i++) {
        unsigned long r = readOne(paths[i], props);
        if (r == 0) bad++;
        s += r;
      }
      checksum += s;
      failed += bad;
    });
  }
  for (auto &th : pool) th.join();
  double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%zu %.6f %.1f %lu %lu\n", n, dt, n / dt, checksum.load(), failed.load());
  return 0;
}
