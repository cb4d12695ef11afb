// malloc's heap on transparent huge pages: the restart with glibc.malloc.hugetlb=1.
#include "cli/HugePages.hpp"

#include "engine/Budget.hpp" // PTXMC_ASAN

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

namespace ptxmc::cli {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

/** glibc's version is at least major.minor. */
bool atLeast(const std::string& version, int major, int minor) {
    int got[2] = {0, 0};
    if (std::sscanf(version.c_str(), "%d.%d", &got[0], &got[1]) != 2) return false;
    return got[0] > major || (got[0] == major && got[1] >= minor);
}

} // namespace

std::optional<std::string> hugePageTunables(const MallocEnvironment& env) {
    if (env.preloaded || env.thpEnabled.find("[madvise]") == std::string::npos) return std::nullopt;
    if (!atLeast(env.glibcVersion, 2, 35)) return std::nullopt; // the tunable came in 2.35
    const std::string setting = std::string(kTunable) + "=1";
    if (!env.glibcTunables || env.glibcTunables->empty()) return setting;
    if (env.glibcTunables->find(kTunable) != std::string::npos) return std::nullopt;
    return *env.glibcTunables + ":" + setting;
}

MallocEnvironment currentMallocEnvironment() {
    MallocEnvironment env;
    if (const char* t = std::getenv("GLIBC_TUNABLES")) env.glibcTunables = t;
    const char* preload = std::getenv("LD_PRELOAD");
    env.preloaded = preload != nullptr && *preload != '\0';
    std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
    std::ostringstream text;
    text << thp.rdbuf();
    env.thpEnabled = text.str();
#if defined(__GLIBC__)
    env.glibcVersion = gnu_get_libc_version();
#endif
    return env;
}

void restartWithHugePages(char** argv) {
#if defined(PTXMC_ASAN)
    return; // the sanitizer's allocator is not glibc's
#endif
    const MallocEnvironment env = currentMallocEnvironment();
    const auto tunables = hugePageTunables(env);
    if (!tunables) return;
    if (setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
    execv("/proc/self/exe", argv);
    // The exec failed (no /proc, the binary replaced): run on as it is, with the environment
    // it had for what this run starts.
    if (env.glibcTunables)
        setenv("GLIBC_TUNABLES", env.glibcTunables->c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
}

} // namespace ptxmc::cli
