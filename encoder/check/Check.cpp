// The driver: one lowered program, one engine or both; the cross-check keeps them honest.
#include "check/Check.hpp"

#include "check/LeftBehind.hpp"
#include "engine/Budget.hpp"
#include "engine/Engine.hpp"
#include "engine/ResultBuilder.hpp"
#include "enumerate/EnumerateEngine.hpp"
#include "smt/Z3Engine.hpp"

#include <fmt/format.h>
#include <new>
#include <sstream>

namespace ptxmc::engine {

namespace {

std::string describe(const engine::CheckResult& r) {
    std::ostringstream out;
    out << engine::toString(r.observation) << " states {";
    for (const auto& s : r.states) {
        out << " [";
        for (std::size_t i = 0; i < s.values.size(); ++i)
            out << (i ? " " : "") << r.observed[i] << "=" << s.values[i];
        out << "]";
    }
    out << " } flags {";
    for (const auto& f : r.flags)
        out << " " << f.name;
    out << " }";
    if (!r.unknownReason.empty()) out << " (" << r.unknownReason.text << ")";
    return out.str();
}

/** Why a search that threw `e` stopped: a limit (its own words), or an internal error. */
UnknownReason stoppedBecause(const std::exception& e) {
    if (const auto* limit = dynamic_cast<const LimitReached*>(&e)) return limit->reason();
    if (const auto* failed = dynamic_cast<const std::bad_alloc*>(&e))
        return allocationFailure(*failed);
    return {UnknownKind::InternalError, std::string("internal error: ") + e.what()};
}

/** A limit's reason with how far the search got, where it reported that (SearchProgress). */
UnknownReason withProgress(UnknownReason why, const CheckOptions& options) {
    const std::string where = options.progress ? options.progress->where() : std::string();
    if (why.stoppedByLimit() && !where.empty()) why.text += "; " + where;
    return why;
}

/** engine.search with the limits' exceptions turned into Unknown: it throws nothing. */
void searchCaught(const Engine& engine, const ir::Program& p, const cat::ResolvedModel& model,
                  const CheckOptions& options, Clock::time_point start,
                  engine::CheckResult& r) noexcept {
    try {
        engine.search(p, model, options, start, r);
        // Z3 may stop at its own time parameter a hair before the watchdog: the query answers
        // unknown, with no exception, and the reason still says how far the search got.
        if (r.stoppedByLimit()) r.unknownReason = withProgress(r.unknownReason, options);
    } catch (const std::exception& e) {
        std::optional<engine::Stats> stats = std::move(r.stats); // how far it got (--stats)
        setStopped(r, p, withProgress(stoppedBecause(e), options));
        r.stats = std::move(stats);
    }
}

/**
 * The time a search may take before the caller stops waiting for it: the limit and a grace
 * second for Z3 to stop at the watchdog's interrupt and free its memory.
 */
Clock::time_point waitUntil(const CheckOptions& options, Clock::time_point start) {
    return start + std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(options.timeoutSeconds + 0.75));
}

UnknownReason leftBehindReason(const CheckOptions& options) {
    return withProgress({UnknownKind::Timeout,
                         fmt::format("timeout: the test ran past --timeout {:g} s (Z3 did not "
                                     "stop at the interrupt; its search is left to end on its "
                                     "own)",
                                     options.timeoutSeconds)},
                        options);
}

/** The options with a progress record of their own, which leftBehindReason reads. */
CheckOptions reporting(CheckOptions options) {
    options.progress = std::make_shared<SearchProgress>();
    return options;
}

/** One engine's answer; a static deadlock needs no search. */
engine::CheckResult run(const Engine& engine, const ir::Program& p, const cat::ResolvedModel& model,
                        const CheckOptions& options, Clock::time_point start) {
    engine::CheckResult r = resultSkeleton(p);
    if (!p.staticDeadlocks.empty()) {
        setStaticDeadlock(r, p);
    } else if (options.timeoutSeconds > 0) {
        std::vector<engine::CheckResult> out{r};
        const CheckOptions reported = reporting(options);
        auto search = [own = engine.clone(), options = reported,
                       start](const ir::Program& q, const cat::ResolvedModel& m,
                              std::vector<engine::CheckResult>& o) {
            searchCaught(*own, q, m, options, start, o[0]);
        };
        if (searchWithin(p, model, waitUntil(options, start), out, search))
            r = std::move(out[0]);
        else
            setStopped(r, p, leftBehindReason(reported));
    } else {
        searchCaught(engine, p, model, reporting(options), start, r);
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
}

/** The Z3 answer, unless the explicit engine's differs: then Unknown, showing both. */
engine::CheckResult crossChecked(engine::CheckResult z3, const engine::CheckResult& ex) {
    if (z3.observation == engine::Observation::Unknown || sameAnswer(z3, ex)) {
        z3.seconds += ex.seconds;
        return z3;
    }
    engine::CheckResult r = z3;
    r.observation = engine::Observation::Unknown;
    // An explicit search stopped by a limit differs from any answer, but proves no engine wrong.
    r.unknownReason = {ex.stoppedByLimit() ? ex.unknownReason.kind : UnknownKind::EnginesDisagree,
                       "ENGINES DISAGREE: z3: " + describe(z3) + "; enumerate: " + describe(ex)};
    r.seconds += ex.seconds;
    return r;
}

/** Every reading's answer from one engine; a static deadlock needs no search. */
std::vector<engine::CheckResult> runReadings(const Engine& engine, const ir::Program& p,
                                             const cat::ResolvedModel& model,
                                             const CheckOptions& options) {
    std::vector<engine::CheckResult> out(model.readings.size() + 1, resultSkeleton(p));
    if (p.staticDeadlocks.empty() && options.timeoutSeconds > 0) {
        const Clock::time_point start = options.startedAt.value_or(Clock::now());
        CheckOptions timed = reporting(options);
        timed.startedAt = start;
        auto search = [own = engine.clone(), timed](const ir::Program& q,
                                                    const cat::ResolvedModel& m,
                                                    std::vector<engine::CheckResult>& o) {
            try {
                own->searchReadings(q, m, timed, o);
            } catch (const std::exception& e) { // a limit reached before the search began
                for (engine::CheckResult& r : o)
                    setStopped(r, q, stoppedBecause(e));
            }
        };
        if (!searchWithin(p, model, waitUntil(options, start), out, search))
            for (engine::CheckResult& r : out)
                setStopped(r, p, leftBehindReason(timed));
        return out;
    }
    if (p.staticDeadlocks.empty()) {
        engine.searchReadings(p, model, options, out);
        return out;
    }
    for (engine::CheckResult& r : out)
        setStaticDeadlock(r, p);
    return out;
}

} // namespace

void Engine::searchReadings(const ir::Program& p, const cat::ResolvedModel& model,
                            const CheckOptions& options,
                            std::vector<engine::CheckResult>& out) const {
    // One time limit for the whole test, as the Z3 engine keeps it; each reading's seconds
    // are its own.
    const Clock::time_point start = options.startedAt.value_or(Clock::now());
    for (std::size_t k = 0; k < out.size(); ++k) {
        CheckOptions under = options;
        if (k == 0)
            under.reading.reset();
        else
            under.reading = model.readings.at(k - 1).reading;
        const Clock::time_point began = k == 0 ? start : Clock::now();
        out[k] = run(*this, p, model, under, start);
        out[k].seconds = std::chrono::duration<double>(Clock::now() - began).count();
    }
}

std::vector<engine::CheckResult> checkReadings(const ir::Program& program,
                                               const cat::ResolvedModel& model,
                                               const CheckOptions& options) {
    if (options.engine == EngineKind::Z3)
        return runReadings(smt::Z3Engine{}, program, model, options);
    if (options.engine == EngineKind::Enumerate)
        return runReadings(enumerate::EnumerateEngine{}, program, model, options);
    std::vector<engine::CheckResult> z3 = runReadings(smt::Z3Engine{}, program, model, options);
    std::vector<engine::CheckResult> ex =
        runReadings(enumerate::EnumerateEngine{}, program, model, options);
    for (std::size_t k = 0; k < z3.size(); ++k)
        z3[k] = crossChecked(std::move(z3[k]), ex[k]);
    return z3;
}

bool sameAnswer(const engine::CheckResult& a, const engine::CheckResult& b) {
    if (a.observation != b.observation || a.states.size() != b.states.size()) return false;
    for (std::size_t i = 0; i < a.states.size(); ++i)
        if (a.states[i].values != b.states[i].values) return false;
    if (a.flags.size() != b.flags.size() || a.boundReached != b.boundReached) return false;
    for (std::size_t i = 0; i < a.flags.size(); ++i)
        if (a.flags[i].name != b.flags[i].name) return false;
    return true;
}

engine::CheckResult check(const ir::Program& program, const cat::ResolvedModel& model,
                          const CheckOptions& options) {
    const Clock::time_point start = options.startedAt.value_or(Clock::now());
    if (options.engine == EngineKind::Z3)
        return run(smt::Z3Engine{}, program, model, options, start);
    if (options.engine == EngineKind::Enumerate)
        return run(enumerate::EnumerateEngine{}, program, model, options, start);
    engine::CheckResult z3 = run(smt::Z3Engine{}, program, model, options, start);
    // The explicit engine gets a time limit of its own, as when it runs alone.
    engine::CheckResult ex =
        run(enumerate::EnumerateEngine{}, program, model, options, Clock::now());
    return crossChecked(std::move(z3), ex);
}

} // namespace ptxmc::engine
