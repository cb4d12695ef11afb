// Budget: deadline and resident-memory checks for one test's encoding and search.
#include "engine/Budget.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

namespace ptxmc::engine {

Budget::Budget(const CheckOptions& options, Clock::time_point start)
    : seconds_(options.timeoutSeconds), memoryBytes_(options.memoryLimitMiB << 20U) {
    if (options.timeoutSeconds > 0)
        deadline_ = start + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(options.timeoutSeconds));
}

void Budget::poll() const {
    if (deadline_ && Clock::now() > *deadline_)
        throw LimitReached(fmt::format("timeout: the test ran past --timeout {:g} s", seconds_));
    // Reading /proc costs a system call: every 1024th poll is often enough, since the loops
    // that poll allocate little per step.
    if (memoryBytes_ == 0 || (polls_++ & 1023U) != 0) return;
    std::size_t now = residentBytes();
    if (now > memoryBytes_)
        throw LimitReached(fmt::format("memory limit: the process passed --memory-limit {} MiB "
                                       "({} MiB resident)",
                                       memoryBytes_ >> 20U, now >> 20U));
}

unsigned Budget::millisLeft() const {
    if (!deadline_) return 0;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline_ - Clock::now());
    return left.count() < 1 ? 1U : static_cast<unsigned>(left.count());
}

std::size_t residentBytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    if (!(statm >> pages >> resident)) return 0;
    return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t defaultMemoryLimitMiB() {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return 8192;
    std::size_t mib = (static_cast<std::size_t>(pages) * static_cast<std::size_t>(size)) >> 20U;
    return mib * 2 / 3;
}

} // namespace ptxmc::engine
