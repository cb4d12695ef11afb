// The time and memory one check may use, polled by every phase that can grow with the input.
#pragma once

#include "engine/Options.hpp"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace ptxmc::engine {

/** Thrown by Budget::poll; the driver turns it into Unknown with its message as the reason. */
class LimitReached : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/**
 * The limits of one check: a wall-clock deadline (CheckOptions::timeoutSeconds from the
 * test's start, so parsing and lowering count) and the process's resident memory
 * (CheckOptions::memoryLimitMiB; tests checked at once share the process). Encoding loops call
 * poll(); Z3 queries get the time that is left (millisLeft) and Z3's own allocator the memory
 * cap (set once per process by the Z3 engine).
 */
class Budget {
public:
    Budget() = default;
    Budget(const CheckOptions& options, Clock::time_point start);

    /** Throws LimitReached once the deadline has passed or memory is over the limit. */
    void poll() const;
    /** Milliseconds to the deadline (at least 1), or 0 when there is none. */
    unsigned millisLeft() const;
    bool timed() const { return deadline_.has_value(); }

private:
    std::optional<Clock::time_point> deadline_;
    double seconds_ = 0;
    std::size_t memoryBytes_ = 0;
    mutable unsigned polls_ = 0;
};

/** The process's resident set size in bytes (0 where /proc is not there). */
std::size_t residentBytes();

} // namespace ptxmc::engine
