// malloc's heap on transparent huge pages where the kernel gives them only on request.
#pragma once

#include <optional>
#include <string>

namespace ptxmc::cli {

/**
 * What decides whether ptxmc restarts itself with glibc's huge-page tunable. A check touches
 * its memory once, in 4 KiB page faults: cute's Hopper tutorial faults 370,000 times for its
 * 1 GiB, a quarter of its time on a virtual machine (bench/history.md). glibc (2.35 on) asks
 * the kernel for 2 MiB pages when GLIBC_TUNABLES has glibc.malloc.hugetlb=1, and that tunable is
 * read only when the program starts.
 */
struct MallocEnvironment {
    std::optional<std::string> glibcTunables; ///< GLIBC_TUNABLES, where set
    bool preloaded = false;   ///< LD_PRELOAD is set: another allocator, or a tool like valgrind
    std::string thpEnabled;   ///< /sys/kernel/mm/transparent_hugepage/enabled, as read
    std::string glibcVersion; ///< gnu_get_libc_version(); empty where the C library is not glibc
};

/**
 * GLIBC_TUNABLES for the restart, or nullopt where there is none to make: the kernel gives
 * huge pages on request (`[madvise]`; `[always]` gives them anyway, `[never]` not at all), glibc
 * is 2.35 or later, nothing is preloaded, and GLIBC_TUNABLES does not set the tunable already
 * (the user's choice, `glibc.malloc.hugetlb=0` included, or the restart's own).
 */
std::optional<std::string> hugePageTunables(const MallocEnvironment& env);

/** This process's environment, as hugePageTunables reads it. */
MallocEnvironment currentMallocEnvironment();

/**
 * Executes this program again (/proc/self/exe, the same arguments) with the tunables
 * hugePageTunables gives; returns where it gives none or the exec fails, and the run goes on
 * as it is; never under AddressSanitizer. Call it first, before anything is printed or read.
 */
void restartWithHugePages(char** argv);

} // namespace ptxmc::cli
