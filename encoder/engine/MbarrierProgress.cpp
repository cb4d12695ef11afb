// phasesOutOfReach: phases an object's waits need against the arrivals and bytes still to come.
#include "engine/MbarrierProgress.hpp"

#include <algorithm>

namespace ptxmc::engine::mbarrier {

namespace {

/** Where the object's remaining life starts: its state now, or the state an init still to run
 *  gives it (what ran before that init is lost to it). */
struct Start {
    std::int64_t phase, pending, expected, tx;
};

/** The start, or nullopt where `left` has an operation the bound does not follow. */
std::optional<Start> startOf(const State<ir::ConcreteValues>& now,
                             const std::vector<OpLeft>& left) {
    std::optional<std::size_t> init;
    for (std::size_t i = 0; i < left.size(); ++i) {
        const ir::Event& e = *left[i].event;
        switch (e.mbOp) {
        case ir::MbOp::Init:
            if (init || now.valid) return std::nullopt; // re-initialised: phases restart
            init = i;
            break;
        case ir::MbOp::Inval:
        case ir::MbOp::Increment:
            return std::nullopt;
        case ir::MbOp::Arrive:
            if (e.mbDrop || e.mbArrivals < 0 || e.mbAmount < 0) return std::nullopt;
            break;
        case ir::MbOp::ExpectTx:
        case ir::MbOp::CompleteTx:
            if (e.mbAmount < 0) return std::nullopt;
            break;
        case ir::MbOp::Wait:
            if (left[i].spinning && (!e.mbParity || !left[i].operand)) return std::nullopt;
            break;
        case ir::MbOp::Query:
        case ir::MbOp::None:
            break;
        }
    }
    if (!init) {
        if (!now.valid) return std::nullopt;
        return Start{now.phase, now.pending, now.expected, now.tx};
    }
    // Every spinning wait must come after the init, or it could find the object as it is now.
    for (const OpLeft& op : left)
        if (op.spinning && std::find(op.after.begin(), op.after.end(), *init) == op.after.end())
            return std::nullopt;
    const std::int64_t count = left[*init].event->mbAmount;
    return Start{0, count, count, 0};
}

/** The phase completions the spinning waits need from `phase` (a wait's phase is at least that
 *  of every wait before it). */
std::int64_t completionsNeeded(std::int64_t phase, const std::vector<OpLeft>& left) {
    std::vector<std::size_t> waits;
    for (std::size_t i = 0; i < left.size(); ++i)
        if (left[i].spinning) waits.push_back(i);
    // `after` is transitively closed, so a wait's predecessors have fewer of their own.
    std::sort(waits.begin(), waits.end(), [&](std::size_t a, std::size_t b) {
        return left[a].after.size() < left[b].after.size();
    });
    std::vector<std::int64_t> returnsAt(left.size(), phase);
    std::int64_t last = phase;
    constexpr ir::ConcreteValues values{};
    for (std::size_t w : waits) {
        std::int64_t at = phase;
        for (std::size_t b : left[w].after)
            if (left[b].spinning) at = std::max(at, returnsAt[b]);
        // The first phase from there that lets the wait through, as the machine decides: a
        // parity wait's comes within one completion.
        const auto passes = [&](std::int64_t ph) {
            return mbarrier::waitCondition(values, *left[w].event, ph, true,
                                           [&] { return *left[w].operand; });
        };
        if (!passes(at)) ++at;
        returnsAt[w] = at;
        last = std::max(last, at);
    }
    return last - phase;
}

/** A lower bound on the bytes arrivals totalling at least `needed` expect: the cheapest per
 *  arrival first, the last one in part (the linear relaxation of choosing whole arrivals). */
std::int64_t leastExpected(std::vector<const ir::Event*> arrives, std::int64_t needed) {
    std::sort(arrives.begin(), arrives.end(), [](const ir::Event* a, const ir::Event* b) {
        return a->mbAmount * b->mbArrivals < b->mbAmount * a->mbArrivals;
    });
    std::int64_t bytes = 0;
    for (const ir::Event* a : arrives) {
        if (needed <= 0) break;
        const std::int64_t take = std::min(needed, a->mbArrivals);
        bytes += a->mbAmount * take / a->mbArrivals;
        needed -= take;
    }
    return bytes;
}

} // namespace

bool phasesOutOfReach(const State<ir::ConcreteValues>& now, const std::vector<OpLeft>& left) {
    const std::optional<Start> start = startOf(now, left);
    if (!start || start->pending < 0 || start->expected < 1) return false;
    const std::int64_t completions = completionsNeeded(start->phase, left);
    if (completions <= 0) return false;
    // The first completion needs the arrivals pending at the start, each later one `expected`.
    const std::int64_t arrivals = start->pending + (completions - 1) * start->expected;
    std::vector<const ir::Event*> arrives;
    std::int64_t arrivalsLeft = 0, bytesLeft = 0;
    for (const OpLeft& op : left) {
        const ir::Event& e = *op.event;
        if (e.mbOp == ir::MbOp::Arrive && e.mbArrivals > 0) {
            arrives.push_back(&e);
            arrivalsLeft += e.mbArrivals;
        }
        if (e.mbOp == ir::MbOp::CompleteTx) bytesLeft += e.mbAmount;
    }
    if (arrivalsLeft < arrivals) return true;
    return start->tx + leastExpected(std::move(arrives), arrivals) > bytesLeft;
}

} // namespace ptxmc::engine::mbarrier
