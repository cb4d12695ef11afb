// The rule an mbarrier misuse breaks, read off the object's operations in mbarrier order.
#include "explain/MisuseHistory.hpp"

#include "engine/MbarrierMachine.hpp"
#include "engine/ResultBuilder.hpp"
#include "explain/WitnessBuilder.hpp"
#include "ir/ValueSemantics.hpp"
#include "ptx/Sections.hpp"

#include <algorithm>

namespace ptxmc::engine::explain {

namespace {

using V = ir::ConcreteValues;
constexpr V values{};

/** "P0 line 210" for event `id`. */
std::string where(const ir::Program& p, int id) {
    const EventRef ref = eventRef(p, id);
    return "P" + std::to_string(ref.thread) + " line " + std::to_string(ref.loc.line);
}

/** The first of `ops` after position `from` that is an mbarrier.init, or -1. */
int initAfter(const ir::Program& p, const std::vector<int>& ops, std::size_t from) {
    for (std::size_t i = from + 1; i < ops.size(); ++i)
        if (p.events[static_cast<std::size_t>(ops[i])].mbOp == ir::MbOp::Init) return ops[i];
    return -1;
}

/** A wait before ops[at] in the object's order returned True in its phase instance: the
 *  phase rule as engine/Execution.cpp checks it. */
bool observedBefore(const ir::Program& p, const std::vector<int>& ops, std::size_t at,
                    const Outcome& o) {
    for (std::size_t j = 0; j < at; ++j) {
        const int w = ops[j];
        if (p.events[static_cast<std::size_t>(w)].mbOp == ir::MbOp::Wait &&
            mbarrier::observes<V>(o.exists[static_cast<std::size_t>(w)], o.waitSuccess.at(w), true,
                                  o.stampBefore.at(w), o.stampBefore.at(ops[at])))
            return true;
    }
    return false;
}

/** The rule operation ops[at] breaks on the object as it found it (`s`, `lastInit`); `token`
 *  its state token's value (a token wait). */
std::string ruleBroken(const ir::Program& p, const std::vector<int>& ops, std::size_t at,
                       const mbarrier::State<V>& s, int lastInit, const Outcome& o,
                       std::int64_t token) {
    const ir::Event& e = p.events[static_cast<std::size_t>(ops[at])];
    if (e.mbOp == ir::MbOp::Init && s.valid)
        return "the object is initialised already (" +
               (lastInit >= 0 ? "by " + where(p, lastInit) : std::string("before the program")) +
               "): mbarrier.init of a valid object is undefined (" +
               ptx::cite(ptx::Sec::MbarrierInit) + ")";
    if (!s.valid) {
        const int later = initAfter(p, ops, at);
        return "the object is not initialised: " +
               (later >= 0 ? "its mbarrier.init, " + where(p, later) +
                                 ", comes after it in the object's order"
                           : std::string("no mbarrier.init of it comes before it")) +
               " (" + ptx::cite(ptx::Sec::MbarrierInit) + ")";
    }
    const auto step = mbarrier::apply(values, s, e);
    if (e.mbOp == ir::MbOp::Arrive && step.pendingAfterArrival < 0)
        return "no arrival is pending in its phase (" + ptx::cite(ptx::Sec::MbarrierArrive) + ")";
    if (step.countMisuse && (e.mbDrop || e.mbNoComplete))
        return e.mbDrop ? "its arrive_drop leaves no expected arrival (" +
                              ptx::cite(ptx::Sec::MbarrierArriveDrop) + ")"
                        : "its .noComplete arrive completes the phase (" +
                              ptx::cite(ptx::Sec::MbarrierArrive) + ")";
    if (step.countMisuse)
        return (e.mbOp == ir::MbOp::Arrive
                    ? "it is the last arrival of its phase, and more bytes completed than the "
                      "tx-count expects (tx-count " +
                          std::to_string(s.tx) + " before it, " + std::to_string(e.mbAmount) +
                          " bytes announced by it; "
                    : "with every arrival of its phase in, it completes more bytes than the "
                      "tx-count expected (tx-count " +
                          std::to_string(s.tx) + " before it, " + std::to_string(e.mbAmount) +
                          " bytes completed by it; ") +
               ptx::cite(ptx::Sec::MbarrierTrackingAsync) + ")";
    if (e.mbOp == ir::MbOp::Wait && e.mbToken &&
        mbarrier::staleToken(values, s.phase, V::word(token)))
        return "its state token (phase " + std::to_string(token) +
               ") is neither of the current phase nor of the one before (" +
               ptx::cite(ptx::Sec::MbarrierTestWaitTryWait) + ")";
    if (e.mbOp == ir::MbOp::Arrive &&
        mbarrier::unobservedArrive<V>(true, s.phase, observedBefore(p, ops, at, o)))
        return "it arrives in a phase after the first with no test_wait/try_wait returning True "
               "in the phase before it (" +
               ptx::cite(ptx::Sec::MbarrierPhase) + ")";
    // The object's counts allow it: what is left is the model's mb-init-unordered.
    return "its thread need not see the object initialised: the mbarrier.init" +
           (lastInit >= 0 ? " (" + where(p, lastInit) + ")" : std::string()) +
           " is ordered before it neither by causality nor by a fence.mbarrier_init that "
           "synchronizes with its thread (mb-init-unordered, decision Q17; " +
           ptx::cite(ptx::Sec::Membar) + ")";
}

/** At most `keep` lines of `history`: the first two and the last ones, the rest counted. */
std::vector<std::string> shortened(std::vector<std::string> history, std::size_t keep) {
    if (history.size() <= keep) return history;
    const std::size_t tail = keep - 2, cut = history.size() - keep;
    std::vector<std::string> out(history.begin(), history.begin() + 2);
    out.push_back("  ... " + std::to_string(cut) + " more");
    out.insert(out.end(), history.end() - static_cast<std::ptrdiff_t>(tail), history.end());
    return out;
}

} // namespace

std::vector<std::string> misuseHistory(const ir::Program& p, const Choices& c, const Outcome& o,
                                       int op) {
    const ir::Event& e = p.events[static_cast<std::size_t>(op)];
    if (!e.has(ir::Tag::MB)) return {};
    auto found = c.mbo.find(e.location);
    if (found == c.mbo.end()) return {};
    const std::vector<int>& ops = found->second;
    auto s = mbarrier::initial(values, p.locations[static_cast<std::size_t>(e.location)]);
    int lastInit = -1;
    std::vector<std::string> history;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const int id = ops[i];
        if (!o.exists[static_cast<std::size_t>(id)]) continue;
        const ir::Event& ev = p.events[static_cast<std::size_t>(id)];
        const bool init = ev.mbOp == ir::MbOp::Init;
        history.push_back("  " + describeEvent(p, o, id) +
                          (s.valid || init ? "" : ", on an object not initialised"));
        if (id == op) {
            Outcome scratch = o; // evalValue memoises into the outcome
            const std::int64_t token = e.mbToken ? evalValue(e.mbToken, p, c, scratch) : 0;
            std::vector<std::string> out{"why it is undefined: " +
                                         ruleBroken(p, ops, i, s, lastInit, o, token)};
            out.push_back("the operations of " +
                          p.locations[static_cast<std::size_t>(e.location)].name +
                          " in its order, up to it:");
            history = shortened(std::move(history), 12);
            out.insert(out.end(), history.begin(), history.end());
            return out;
        }
        if (init) lastInit = id;
        s = mbarrier::apply(values, s, ev).after;
    }
    return {};
}

} // namespace ptxmc::engine::explain
