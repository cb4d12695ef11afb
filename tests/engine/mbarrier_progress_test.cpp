// mbarrier::phasesOutOfReach: a sure "never" from the phases waits need and the arrivals and bytes
// left.
#include "engine/MbarrierProgress.hpp"
#include "ir/ValueSemantics.hpp"

#include <catch2/catch.hpp>
#include <deque>
#include <random>
#include <set>
#include <tuple>
#include <vector>

using namespace ptxmc;
namespace mb = engine::mbarrier;

// A named namespace: the unit tests are compiled in batches, and the machine's test has a State.
namespace mbarrier_progress_test {

using State = mb::State<ir::ConcreteValues>;
constexpr ir::ConcreteValues values{};

/** Builds an object's operations left, each after the ones named. */
class Ops {
public:
    std::size_t init(std::int64_t count, std::vector<std::size_t> after = {}) {
        return add(ir::MbOp::Init, count, std::nullopt, std::move(after));
    }
    std::size_t arriveExpect(std::int64_t bytes, std::vector<std::size_t> after = {},
                             std::int64_t arrivals = 1) {
        const std::size_t i = add(ir::MbOp::Arrive, bytes, std::nullopt, std::move(after));
        events_[i].mbArrivals = arrivals;
        return i;
    }
    std::size_t complete(std::int64_t bytes, std::vector<std::size_t> after = {}) {
        return add(ir::MbOp::CompleteTx, bytes, std::nullopt, std::move(after));
    }
    std::size_t parityWait(std::int64_t parity, std::vector<std::size_t> after = {}) {
        const std::size_t i = add(ir::MbOp::Wait, 0, parity, std::move(after));
        events_[i].mbParity = ir::Value::makeConst(parity);
        left_[i].spinning = true;
        return i;
    }
    std::size_t tokenWait(std::int64_t token, std::vector<std::size_t> after = {}) {
        const std::size_t i = add(ir::MbOp::Wait, 0, token, std::move(after));
        events_[i].mbToken = ir::Value::makeConst(token);
        left_[i].spinning = true;
        return i;
    }
    std::size_t add(ir::MbOp kind, std::int64_t amount, std::optional<std::int64_t> operand,
                    std::vector<std::size_t> after) {
        ir::Event e;
        e.mbOp = kind;
        e.mbAmount = amount;
        events_.push_back(e);
        left_.push_back({nullptr, operand, false, std::move(after)});
        return left_.size() - 1;
    }
    ir::Event& event(std::size_t i) { return events_[i]; }
    std::size_t size() const { return left_.size(); }
    std::vector<mb::OpLeft> left() const {
        std::vector<mb::OpLeft> out = left_;
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i].event = &events_[i];
        return out;
    }

private:
    std::deque<ir::Event> events_;
    std::vector<mb::OpLeft> left_;
};

State uninitialised() {
    ir::Location cell;
    return mb::initial(values, cell);
}

State initialised(std::int64_t count) {
    ir::Location cell;
    cell.mbCount = count;
    return mb::initial(values, cell);
}

/**
 * A 2-SM GEMM's full barrier of one CTA, from its init on: four phases, each announced by the
 * producer's arrive.expect_tx of 20480 bytes and completed by four copies (8192 and 2048 bytes
 * from each CTA), the consumer waiting on parities 0, 1, 0, 1. `lost`: the first copy of phase 0
 * already landed before the init, so its bytes are not among those left.
 */
Ops fullBarrier(bool lost) {
    Ops ops;
    const std::size_t init = ops.init(1);
    std::vector<std::size_t> producer{init}, consumer{init};
    for (int phase = 0; phase < 4; ++phase) {
        producer.push_back(ops.arriveExpect(20480, producer));
        const std::vector<std::int64_t> copies =
            lost && phase == 0 ? std::vector<std::int64_t>{2048, 8192, 2048}
                               : std::vector<std::int64_t>{8192, 2048, 8192, 2048};
        for (std::int64_t bytes : copies)
            ops.complete(bytes);
        consumer.push_back(ops.parityWait(phase % 2, consumer));
    }
    return ops;
}

TEST_CASE("a copy's bytes lost before the init leave the last phase out of reach",
          "[engine][mbarrier]") {
    // 4 x 20480 bytes expected by the arrivals the four phases need, 73728 left to complete
    CHECK(mb::phasesOutOfReach(uninitialised(), fullBarrier(true).left()));
    // every copy still to land: the bytes match, the bound says nothing
    CHECK_FALSE(mb::phasesOutOfReach(uninitialised(), fullBarrier(false).left()));
}

TEST_CASE("too few arrivals left for the phases the waits need", "[engine][mbarrier]") {
    Ops ops;
    const std::size_t init = ops.init(2);
    const std::size_t first = ops.parityWait(0, {init});
    ops.parityWait(1, {init, first});
    for (int i = 0; i < 3; ++i)
        ops.arriveExpect(0);
    CHECK(mb::phasesOutOfReach(uninitialised(), ops.left())); // 4 arrivals needed, 3 left
    ops.arriveExpect(0);
    CHECK_FALSE(mb::phasesOutOfReach(uninitialised(), ops.left()));
}

TEST_CASE("an initialised object starts from its phase, pending count and tx-count",
          "[engine][mbarrier]") {
    // Phase 1 with its arrival in and 100 bytes still to land: parity 1 then 0 need phases 2 and
    // 3, so two completions, the second after one more arrival that expects 50 bytes.
    State now = initialised(1);
    now.phase = 1;
    now.pending = 0;
    now.tx = 100;
    Ops ops;
    const std::size_t first = ops.parityWait(1);
    ops.parityWait(0, {first});
    ops.arriveExpect(50);
    const std::size_t copy = ops.complete(140);
    CHECK(mb::phasesOutOfReach(now, ops.left())); // 150 bytes to complete, 140 left
    ops.event(copy).mbAmount = 150;
    CHECK_FALSE(mb::phasesOutOfReach(now, ops.left()));
}

TEST_CASE("waits count phases only along the order that runs them", "[engine][mbarrier]") {
    // Parity 0 and parity 1 on a fresh object: one completion if they may run in either order
    // (parity 1 returns at phase 0), two if parity 1 must follow parity 0.
    const auto twoWaits = [](bool ordered) {
        Ops ops;
        const std::size_t first = ops.parityWait(0);
        ops.parityWait(1, ordered ? std::vector<std::size_t>{first} : std::vector<std::size_t>{});
        ops.arriveExpect(10);
        ops.arriveExpect(10);
        ops.complete(10);
        return ops;
    };
    CHECK_FALSE(mb::phasesOutOfReach(initialised(1), twoWaits(false).left()));
    CHECK(mb::phasesOutOfReach(initialised(1), twoWaits(true).left()));
}

TEST_CASE("operations the bound does not follow leave the answer to the search",
          "[engine][mbarrier]") {
    // Each case would be out of reach by the count alone: one arrival, two phases needed.
    const auto base = [](Ops& ops) {
        const std::size_t first = ops.parityWait(0);
        ops.parityWait(1, {first});
        ops.arriveExpect(0);
    };
    {
        Ops ops;
        base(ops);
        CHECK(mb::phasesOutOfReach(initialised(1), ops.left()));
    }
    {
        Ops ops; // cp.async.mbarrier.arrive raises the pending count
        base(ops);
        ops.add(ir::MbOp::Increment, 0, std::nullopt, {});
        CHECK_FALSE(mb::phasesOutOfReach(initialised(1), ops.left()));
    }
    {
        Ops ops; // arrive_drop lowers the expected count of later phases
        base(ops);
        ops.event(ops.arriveExpect(0)).mbDrop = true;
        CHECK_FALSE(mb::phasesOutOfReach(initialised(1), ops.left()));
    }
    {
        Ops ops; // a second init restarts the phases
        base(ops);
        ops.init(1);
        CHECK_FALSE(mb::phasesOutOfReach(initialised(1), ops.left()));
    }
    {
        Ops ops; // a token wait: not a parity the bound counts
        base(ops);
        ops.tokenWait(0);
        CHECK_FALSE(mb::phasesOutOfReach(initialised(1), ops.left()));
    }
    {
        Ops ops; // a wait not after the init still to run could find the object as it is now
        const std::size_t init = ops.init(1);
        const std::size_t first = ops.parityWait(0, {init});
        ops.parityWait(1, {first}); // not transitively closed: the init is missing
        ops.arriveExpect(0);
        CHECK_FALSE(mb::phasesOutOfReach(uninitialised(), ops.left()));
    }
}

/** Whether some order of `ops` (each after its `after`, a spinning wait only when it returns)
 *  runs every spinning wait: every order tried, each state once. */
bool someOrderReturnsAll(const State& start, const std::vector<mb::OpLeft>& ops) {
    std::set<std::tuple<unsigned, std::int64_t, std::int64_t, std::int64_t, std::int64_t, bool>>
        seen;
    std::vector<std::pair<unsigned, State>> todo{{0U, start}};
    while (!todo.empty()) {
        auto [ran, s] = todo.back();
        todo.pop_back();
        if (!seen.insert({ran, s.phase, s.pending, s.expected, s.tx, s.valid}).second) continue;
        bool waitsLeft = false;
        for (std::size_t i = 0; i < ops.size(); ++i)
            waitsLeft = waitsLeft || (ops[i].spinning && (ran >> i & 1U) == 0);
        if (!waitsLeft) return true;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            if ((ran >> i & 1U) != 0) continue;
            bool ready = true;
            for (std::size_t b : ops[i].after)
                ready = ready && (ran >> b & 1U) != 0;
            const ir::Event& e = *ops[i].event;
            if (!ready || (ops[i].spinning && !mb::waitCondition(values, e, s.phase, s.valid,
                                                                 [&] { return *ops[i].operand; })))
                continue;
            todo.emplace_back(ran | 1U << i, mb::apply(values, s, e).after);
        }
    }
    return false;
}

/** Random objects of up to 10 operations: an init or not, arrivals with bytes, copies, and
 *  parity waits in one or two chains, the other operations after the init or not. */
Ops randomObject(std::mt19937& rng) {
    Ops ops;
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    std::vector<std::size_t> root;
    if (pick(2) == 0) root.push_back(ops.init(1 + pick(2)));
    std::vector<std::size_t> chain[2] = {root, root};
    const int n = 3 + pick(7);
    for (int k = 0; k < n; ++k) {
        const int kind = pick(3);
        const std::vector<std::size_t> after = pick(3) == 0 ? std::vector<std::size_t>{} : root;
        if (kind == 0) {
            ops.arriveExpect(8 * pick(3), after, 1 + pick(2));
        } else if (kind == 1) {
            ops.complete(8 * (1 + pick(2)), after);
        } else {
            auto& c = chain[pick(2)];
            const std::size_t w = ops.parityWait(pick(2), c);
            c.push_back(w);
        }
    }
    return ops;
}

TEST_CASE("out of reach only where no order returns every wait", "[engine][mbarrier]") {
    std::mt19937 rng(20261206);
    int outOfReach = 0;
    for (int round = 0; round < 4000; ++round) {
        const Ops ops = randomObject(rng);
        State start = rng() % 2 == 0 ? uninitialised() : initialised(1 + rng() % 2);
        if (start.valid) {
            start.phase = rng() % 3;
            start.tx = static_cast<std::int64_t>(rng() % 3) * 8 - 8;
        }
        const std::vector<mb::OpLeft> left = ops.left();
        if (!mb::phasesOutOfReach(start, left)) continue;
        ++outOfReach;
        INFO("round " << round);
        CHECK_FALSE(someOrderReturnsAll(start, left));
    }
    // the bound says something often enough for the comparison to mean something
    CHECK(outOfReach > 400);
}

} // namespace mbarrier_progress_test
