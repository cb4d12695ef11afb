// Why a check answered Unknown: what stopped it (a limit, the unroll bound, the engines) and its
// words.
#pragma once

#include <string>
#include <utility>

namespace ptxmc::engine {

/** What made a check Unknown. Callers ask the kind, never the words (which are for people). */
enum class UnknownKind {
    None,            ///< not Unknown
    Timeout,         ///< --timeout (engine::Budget's deadline, or Z3 stopped at it)
    MemoryLimit,     ///< --memory-limit (engine::Budget's watchdog)
    ResourceLimit,   ///< --rlimit: a Z3 query used up its resource count
    SolverLimit,     ///< Z3 stopped at one of its limits ("canceled", ...) before it was named
    OutOfMemory,     ///< an allocation failed outside our limits
    SolverGaveUp,    ///< Z3 answered unknown for a reason of its own
    UnrollBound,     ///< executions past --unroll leave the answer unproven
    ThinAir,         ///< the explicit engine cannot list values that depend on themselves
    EnginesDisagree, ///< --engine both: the two answers differ
    InternalError,   ///< an exception the engines do not expect
};

/** Whether a check stopped by `kind` ran out of time, memory or solver resources: then no
 *  answer is wrong, only missing (differential skips it, explain reports it as the answer). */
constexpr bool isLimit(UnknownKind kind) {
    switch (kind) {
    case UnknownKind::Timeout:
    case UnknownKind::MemoryLimit:
    case UnknownKind::ResourceLimit:
    case UnknownKind::SolverLimit:
    case UnknownKind::OutOfMemory:
        return true;
    case UnknownKind::None:
    case UnknownKind::SolverGaveUp:
    case UnknownKind::UnrollBound:
    case UnknownKind::ThinAir:
    case UnknownKind::EnginesDisagree:
    case UnknownKind::InternalError:
        return false;
    }
    return false;
}

/** The kind and the words printed after "Unknown: " (text, JSON, SARIF and JUnit alike). */
struct UnknownReason {
    UnknownKind kind = UnknownKind::None;
    std::string text;

    UnknownReason() = default;
    UnknownReason(UnknownKind k, std::string words) : kind(k), text(std::move(words)) {}

    bool empty() const { return kind == UnknownKind::None && text.empty(); }
    bool stoppedByLimit() const { return isLimit(kind); }
    /** The same kind, its words after `prefix` (an engine naming itself). */
    UnknownReason prefixed(const std::string& prefix) const { return {kind, prefix + text}; }
};

} // namespace ptxmc::engine
