// The time and memory one check may use: polled by every phase, enforced by a watchdog thread.
#pragma once

#include "engine/Options.hpp"
#include "engine/Unknown.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

namespace ptxmc::engine {

/** Thrown by Budget::poll; the driver turns it into Unknown with reason() as the reason. */
class LimitReached : public std::runtime_error {
public:
    explicit LimitReached(const UnknownReason& why)
        : std::runtime_error(why.text), kind_(why.kind) {}
    UnknownReason reason() const { return {kind_, what()}; }

private:
    UnknownKind kind_;
};

/**
 * Thrown by an allocation of ours (operator new) on a thread that checks a test whose limit
 * the watchdog has seen passed: a single large step (copying a dense relation) then stops at
 * its next allocation, not at the next poll. A std::bad_alloc, so every container unwinds.
 */
class OverLimit : public std::bad_alloc {
public:
    explicit OverLimit(UnknownReason why) : why_(std::move(why)) {}
    const char* what() const noexcept override { return why_.text.c_str(); }
    const UnknownReason& reason() const { return why_; }

private:
    UnknownReason why_;
};

/** The reason of an allocation failure: the limit's for OverLimit, else "out of memory". */
UnknownReason allocationFailure(const std::bad_alloc& e);

class Watchdog;

// Whether AddressSanitizer instruments this build: GCC says so with __SANITIZE_ADDRESS__,
// clang with __has_feature. Its own operator new then stays (Budget::AllocationGuard is off).
#if defined(__SANITIZE_ADDRESS__)
#define PTXMC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTXMC_ASAN 1
#endif
#endif

/**
 * The limits of one check: a wall-clock deadline (CheckOptions::timeoutSeconds from the
 * test's start, so parsing and lowering count) and the process's resident memory
 * (CheckOptions::memoryLimitMiB; tests checked at once share the process).
 *
 * A limited budget runs a watchdog thread that looks at the clock and the resident memory
 * every few milliseconds. Code of ours calls poll(), which throws once the watchdog has seen a
 * limit pass; code that does not return to us (a Z3 query, Z3 simplifying an assertion) is
 * stopped by the interrupt it registered with onLimit(), after which poll() throws too. Z3's
 * own timeout and memory cap are not relied on: the first is not honoured inside every
 * search loop of Z3 4.8, the second throws from places the C++ API cannot catch.
 */
class Budget {
public:
    Budget() = default;
    Budget(const CheckOptions& options, Clock::time_point start);

    /** Throws LimitReached once the deadline has passed or memory is over the limit. */
    void poll() const;
    /** The limit that stopped the check ("timeout: ...", "memory limit: ..."), if one did. */
    std::optional<UnknownReason> reached() const;
    /** Milliseconds to the deadline (at least 1), or 0 when there is none. */
    unsigned millisLeft() const;
    bool timed() const { return deadline_.has_value(); }

    /** While the returned handle lives, `interrupt` runs (on the watchdog's thread) when a
     *  limit is reached; at once if one already was. An unlimited budget never calls it. */
    class Hook;
    [[nodiscard]] Hook onLimit(std::function<void()> interrupt) const;

    /** While the returned guard lives, this thread's allocations throw OverLimit once a
     *  limit is reached (one look per 64 allocations). */
    class AllocationGuard;
    [[nodiscard]] AllocationGuard guardAllocations() const;

private:
    std::optional<Clock::time_point> deadline_;
    double seconds_ = 0;
    std::size_t memoryBytes_ = 0;
    std::shared_ptr<Watchdog> watchdog_; ///< shared by copies; stops with the last one
};

class Budget::Hook {
public:
    Hook() = default;
    Hook(std::shared_ptr<Watchdog> w, std::size_t id) : watchdog_(std::move(w)), id_(id) {}
    Hook(Hook&& other) noexcept = default;
    Hook& operator=(Hook&&) = delete;
    Hook(const Hook&) = delete;
    Hook& operator=(const Hook&) = delete;
    ~Hook();

private:
    std::shared_ptr<Watchdog> watchdog_;
    std::size_t id_ = 0;
};

class Budget::AllocationGuard {
public:
    explicit AllocationGuard(const Watchdog* w);
    AllocationGuard(const AllocationGuard&) = delete;
    AllocationGuard& operator=(const AllocationGuard&) = delete;
    ~AllocationGuard();

private:
    const Watchdog* previous_;
};

/** The process's resident set size in bytes (0 where /proc is not there). */
std::size_t residentBytes();

} // namespace ptxmc::engine
