// Budget: deadline and resident-memory checks for one test, and the watchdog that enforces them.
#include "engine/Budget.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace ptxmc::engine {

namespace {

UnknownReason timeoutReason(double seconds) {
    return {UnknownKind::Timeout,
            fmt::format("timeout: the test ran past --timeout {:g} s", seconds)};
}

UnknownReason memoryReason(std::size_t limitBytes, std::size_t now) {
    return {UnknownKind::MemoryLimit,
            fmt::format("memory limit: the process reached {} MiB resident, the stopping point "
                        "of --memory-limit {} MiB",
                        now >> 20U, limitBytes >> 20U)};
}

/**
 * The resident size at which a test stops: half the limit, because stopping is not instant.
 * Our allocations stop within one watchdog period, but Z3 grows its term table inside one call
 * (Z3_mk_and or Z3_mk_or while a closure is encoded), which it does not interrupt, by up to
 * two thirds of what the process held: SB128 stopped at 640 MB and peaked at 1030 MB; the
 * loop family without fixed orders at 5.3 GB and 7.6 GB (bench/history.md).
 */
std::size_t stoppingPoint(std::size_t limitBytes) {
    return limitBytes / 2;
}

} // namespace

namespace {
thread_local const Watchdog* guardedBy = nullptr; // this thread's test, while guarded

/** This thread's allocations unguarded for the scope's lifetime. */
class Unguarded {
public:
    Unguarded() : previous_(guardedBy) { guardedBy = nullptr; }
    Unguarded(const Unguarded&) = delete;
    Unguarded& operator=(const Unguarded&) = delete;
    ~Unguarded() { guardedBy = previous_; }

private:
    const Watchdog* previous_;
};
} // namespace

/**
 * One thread per limited check. It wakes every `kPeriod`, so a limit is seen within that
 * period; then it records why and runs every registered interrupt once. Reading
 * /proc/self/statm costs a few microseconds, negligible at this rate.
 */
class Watchdog {
public:
    static constexpr std::chrono::milliseconds kPeriod{10};

    Watchdog(std::optional<Clock::time_point> deadline, double seconds, std::size_t memoryBytes)
        : deadline_(deadline), seconds_(seconds), memoryBytes_(memoryBytes),
          thread_([this] { watch(); }) {}
    ~Watchdog() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    bool tripped() const { return tripped_.load(std::memory_order_acquire); }
    /**
     * Empty until tripped. No lock: reason_ is written once, before tripped_'s release. The
     * copy is made unguarded: a guarded operator new would ask for the reason again, inside
     * the copy (it deadlocked on the lock this took before).
     */
    UnknownReason reason() const {
        if (!tripped()) return {};
        const Unguarded unguarded;
        return reason_;
    }
    std::size_t add(std::function<void()> interrupt) {
        std::unique_lock<std::mutex> lock(mutex_);
        std::size_t id = ++lastId_;
        if (tripped()) {
            lock.unlock();
            interrupt();
            return id;
        }
        interrupts_.emplace(id, std::move(interrupt));
        return id;
    }
    void remove(std::size_t id) {
        std::lock_guard<std::mutex> lock(mutex_);
        interrupts_.erase(id);
    }

private:
    void watch() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!stop_) {
            wake_.wait_for(lock, kPeriod);
            if (stop_) return;
            UnknownReason why = overLimit();
            if (why.empty()) continue;
            reason_ = std::move(why);
            tripped_.store(true, std::memory_order_release);
            // Under the lock: a Hook cannot unregister (and its Z3 context die) meanwhile.
            for (auto& [id, interrupt] : interrupts_)
                interrupt();
            interrupts_.clear();
            return;
        }
    }
    UnknownReason overLimit() const {
        if (deadline_ && Clock::now() > *deadline_) return timeoutReason(seconds_);
        if (memoryBytes_ > 0) {
            std::size_t now = residentBytes();
            if (now > stoppingPoint(memoryBytes_)) return memoryReason(memoryBytes_, now);
        }
        return {};
    }

    const std::optional<Clock::time_point> deadline_;
    const double seconds_;
    const std::size_t memoryBytes_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::atomic<bool> tripped_{false};
    UnknownReason reason_;
    std::map<std::size_t, std::function<void()>> interrupts_;
    std::size_t lastId_ = 0;
    std::thread thread_; // last: starts once everything above is initialised
};

Budget::Budget(const CheckOptions& options, Clock::time_point start)
    : seconds_(options.timeoutSeconds), memoryBytes_(options.memoryLimitMiB << 20U) {
    if (options.timeoutSeconds > 0)
        deadline_ = start + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(options.timeoutSeconds));
    if (deadline_ || memoryBytes_ > 0)
        watchdog_ = std::make_shared<Watchdog>(deadline_, seconds_, memoryBytes_);
}

void Budget::poll() const {
    // The watchdog reads /proc; a poll looks at its verdict and the clock (a vDSO call), so
    // the innermost loops of the encoding can afford one per step.
    if (watchdog_ && watchdog_->tripped()) {
        // Reported here: the allocation guard's one failure would otherwise come later, in a
        // handler of this exception (whose words allocate) and escape it.
        if (guardedBy == watchdog_.get()) guardedBy = nullptr;
        throw LimitReached(watchdog_->reason());
    }
    if (deadline_ && Clock::now() > *deadline_) throw LimitReached(timeoutReason(seconds_));
}

std::optional<UnknownReason> Budget::reached() const {
    if (watchdog_ && watchdog_->tripped()) return watchdog_->reason();
    if (deadline_ && Clock::now() > *deadline_) return timeoutReason(seconds_);
    return std::nullopt;
}

unsigned Budget::millisLeft() const {
    if (!deadline_) return 0;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline_ - Clock::now());
    return left.count() < 1 ? 1U : static_cast<unsigned>(left.count());
}

Budget::Hook Budget::onLimit(std::function<void()> interrupt) const {
    if (!watchdog_) return {};
    std::size_t id = watchdog_->add(std::move(interrupt));
    return {watchdog_, id};
}

Budget::Hook::~Hook() {
    if (watchdog_) watchdog_->remove(id_);
}

namespace {
#if !defined(PTXMC_ASAN)
thread_local unsigned allocations = 0;
#endif
} // namespace

Budget::AllocationGuard Budget::guardAllocations() const {
    return AllocationGuard(watchdog_.get());
}

Budget::AllocationGuard::AllocationGuard(const Watchdog* w) : previous_(guardedBy) {
    if (w != nullptr) guardedBy = w;
}

Budget::AllocationGuard::~AllocationGuard() {
    guardedBy = previous_;
}

UnknownReason allocationFailure(const std::bad_alloc& e) {
    if (const auto* over = dynamic_cast<const OverLimit*>(&e)) return over->reason();
    return {UnknownKind::OutOfMemory, "out of memory"};
}

std::size_t residentBytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    if (!(statm >> pages >> resident)) return 0;
    return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t defaultMemoryLimitMiB() {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0) return 4096;
    std::size_t mib = (static_cast<std::size_t>(pages) * static_cast<std::size_t>(size)) >> 20U;
    return mib / 3;
}

} // namespace ptxmc::engine

// The allocation check of Budget::AllocationGuard. Not under AddressSanitizer, whose own
// operator new reports leaks and mismatches (the limit tests run in the plain build).
#if !defined(PTXMC_ASAN)
// GCC sees this file's own shared_ptr and map nodes freed by the delete below and takes the
// malloc/free pair for a new/free mismatch: the two replacements match each other.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
    using ptxmc::engine::guardedBy;
    if (guardedBy != nullptr && (++ptxmc::engine::allocations & 63U) == 0 && guardedBy->tripped()) {
        const auto* watchdog = guardedBy;
        guardedBy = nullptr; // once: the exception's own string allocates, and so may unwinding
        throw ptxmc::engine::OverLimit(watchdog->reason());
    }
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
#pragma GCC diagnostic pop
#endif
