// engine/Pairwise: relations read per pair give the terms RelOps builds whole, operator by operator
// and on the model.
#include "../unit/BuiltinModel.hpp"
#include "../unit/CorpusFiles.hpp"
#include "../unit/SameTerms.hpp"
#include "cat/Loader.hpp"
#include "cat/Readings.hpp"
#include "cat/Resolver.hpp"
#include "engine/Evaluator.hpp"
#include "engine/Pairwise.hpp"
#include "engine/Relation.hpp"
#include "ir/BaseRelations.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"
#include "smt/ProgramEncoder.hpp"
#include "smt/Z3Algebra.hpp"
#include "smt/Z3Context.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>

using namespace ptxmc;
using namespace ptxmc::engine;
using namespace ptxmc::engine::smt;

namespace {

using testing::requireSameTerms;

using Rel = SparseRel<z3::expr>;
using Set = SparseSet<z3::expr>;
using Node = Pairwise<Z3Algebra>::Node;
using Kind = Pairwise<Z3Algebra>::Kind;

/** A relation of the kinds derived relations have: certain pairs, literals, composites. */
Rel randomRel(z3::context& ctx, std::mt19937& rng, std::size_t n, double density,
              const std::string& name) {
    std::bernoulli_distribution present(density), certain(0.3), composite(0.3);
    Rel r(n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            if (!present(rng)) continue;
            const std::string at = name + std::to_string(i) + "_" + std::to_string(j);
            z3::expr c = certain(rng)     ? ctx.bool_val(true)
                         : composite(rng) ? ctx.bool_const((at + "a").c_str()) &&
                                                !ctx.bool_const((at + "b").c_str())
                                          : ctx.bool_const(at.c_str());
            r.rows[i].emplace(static_cast<int>(j), c);
        }
    return r;
}

Set randomSet(z3::context& ctx, std::mt19937& rng, std::size_t n, const std::string& name) {
    std::bernoulli_distribution present(0.6), certain(0.5);
    Set s;
    for (std::size_t i = 0; i < n; ++i)
        if (present(rng))
            s.members.emplace(static_cast<int>(i),
                              certain(rng) ? ctx.bool_val(true)
                                           : ctx.bool_const((name + std::to_string(i)).c_str()));
    return s;
}

/** Message passing between two threads of one CTA: two stores, two loads. */
ir::Program messagePassing() {
    return lower::lowerTest(litmus::parseLitmus(R"(PTX MP
{ x = 0; y = 0; }
 P0@cta 0,gpu 0   | P1@cta 0,gpu 0   ;
 st.u32 [x], 1    | ld.u32 r0, [y]   ;
 st.u32 [y], 1    | ld.u32 r1, [x]   ;
exists (1:r0 == 1 /\ 1:r1 == 0)
)",
                                                "mp.litmus"));
}

std::shared_ptr<const Node> leaf(const Rel& r) {
    Node x;
    x.kind = Kind::Sparse;
    x.sparse = &r;
    return std::make_shared<const Node>(std::move(x));
}

std::shared_ptr<const Node> of(Kind kind, std::vector<std::shared_ptr<const Node>> args) {
    Node x;
    x.kind = kind;
    x.args = std::move(args);
    return std::make_shared<const Node>(std::move(x));
}

} // namespace

TEST_CASE("a relation read per pair has RelOps's terms, operator by operator", "[pairwise][z3]") {
    std::mt19937 rng(7);
    for (int round = 0; round < 60; ++round) {
        Z3Context ctx;
        z3::expr_vector lemmas(ctx);
        Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
        const std::size_t n = 2 + static_cast<std::size_t>(round % 8);
        RelOps<Z3Algebra> ops{alg, n};
        Pairwise<Z3Algebra> pw{alg, n};
        const Rel a = randomRel(ctx, rng, n, 0.5, "a");
        const Rel b = randomRel(ctx, rng, n, 0.6, "b");
        const Rel c = randomRel(ctx, rng, n, 0.3, "c");
        const Set s = randomSet(ctx, rng, n, "s");
        const Set t = randomSet(ctx, rng, n, "t");

        // A dense base: a test per pair and the condition of a pair that holds.
        std::vector<std::vector<bool>> holds(n, std::vector<bool>(n));
        std::bernoulli_distribution dense(0.8);
        Rel d(n);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if ((holds[i][j] = dense(rng)))
                    d.rows[i].emplace(static_cast<int>(j),
                                      j % 2 == 0
                                          ? ctx.bool_val(true)
                                          : ctx.bool_const(("e" + std::to_string(j)).c_str()));
        auto base = std::make_shared<const DenseBase<z3::expr>>(DenseBase<z3::expr>{
            [&holds](int i, int j) {
                return static_cast<bool>(
                    holds[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]);
            },
            [&d](int i, int j) { return d.rows[static_cast<std::size_t>(i)].at(j); },
            std::nullopt});
        Node dn;
        dn.kind = Kind::Dense;
        dn.dense = base;
        auto D = std::make_shared<const Node>(std::move(dn));
        Node cart;
        cart.kind = Kind::Cartesian;
        cart.left = &s;
        cart.right = &t;
        auto ST = std::make_shared<const Node>(std::move(cart));
        auto A = leaf(a), B = leaf(b), C = leaf(c);

        requireSameTerms(d, pw.materialize(*D), "dense base");
        requireSameTerms(ops.cartesian(s, t), pw.materialize(*ST), "cartesian");
        requireSameTerms(ops.interRels(ops.interRels(a, d), b),
                         pw.materialize(*of(Kind::Inter, {A, D, B})), "a & d & b");
        Rel u = a;
        ops.unionInto(u, d);
        ops.unionInto(u, c);
        requireSameTerms(u, pw.materialize(*of(Kind::Union, {A, D, C})), "a | d | c");
        requireSameTerms(ops.diffRels(ops.diffRels(d, a), ops.cartesian(s, t)),
                         pw.materialize(*of(Kind::Diff, {D, A, ST})), "d \\ a \\ s*t");
        requireSameTerms(ops.complementRel(b), pw.materialize(*of(Kind::Complement, {B})), "~b");
        requireSameTerms(ops.inverse(ops.interRels(d, c)),
                         pw.materialize(*of(Kind::Inverse, {of(Kind::Inter, {D, C})})),
                         "(d & c)^-1");
        auto mixed = of(Kind::Diff, {of(Kind::Union, {D, ST}), of(Kind::Inverse, {A})});
        const Rel mixedWhole = ops.diffRels(ops.unionRels(d, ops.cartesian(s, t)), ops.inverse(a));
        requireSameTerms(mixedWhole, pw.materialize(*mixed), "(d | s*t) \\ a^-1");
        requireSameTerms(ops.seq(a, mixedWhole), pw.seqAfter(a, *mixed), "a ; pairwise");
        requireSameTerms(ops.seq(mixedWhole, c), pw.seqBefore(*mixed, c), "pairwise ; c");
        // A reading's choice between two definitions (Evaluator::chooseReading), read per pair.
        const z3::expr reading = ctx.bool_const("reading");
        auto chosen = [&](std::shared_ptr<const Node> under, std::shared_ptr<const Node> other) {
            Node x;
            x.kind = Kind::Select;
            x.choice = reading;
            x.args = {std::move(under), std::move(other)};
            return std::make_shared<const Node>(std::move(x));
        };
        requireSameTerms(ops.selectRels(reading, a, d), pw.materialize(*chosen(A, D)),
                         "reading ? a : d");
        requireSameTerms(ops.selectRels(reading, ops.cartesian(s, t), a),
                         pw.materialize(*chosen(ST, A)), "reading ? s*t : a");
        requireSameTerms(ops.selectRels(reading, b, b), pw.materialize(*chosen(B, B)),
                         "reading ? b : b");
        requireSameTerms(ops.interRels(c, ops.selectRels(reading, ops.cartesian(s, t), a)),
                         pw.materialize(*of(Kind::Inter, {C, chosen(ST, A)})),
                         "c & (reading ? s*t : a)");
        CHECK(pw.size(*of(Kind::Inter, {D, C})) == c.entries());
        // A sequence made only where an intersection may keep its pairs (x: its other operand).
        const Rel& x = c;
        const Rel whole = ops.seq(a, b);
        const Rel kept = ops.seqWhere(a, b, [&x](std::size_t i, std::vector<char>& row) {
            for (const auto& [j, cond] : x.rows[i])
                row[static_cast<std::size_t>(j)] = 1;
        });
        Rel expected(n); // seq's pairs where x may hold, each with seq's term
        for (std::size_t i = 0; i < n; ++i)
            for (const auto& [j, term] : whole.rows[i])
                if (x.rows[i].count(j) != 0) expected.rows[i].emplace(j, term);
        requireSameTerms(expected, kept, "a ; b where x may hold");
        requireSameTerms(ops.interRels(x, whole), ops.interRels(x, kept), "x & (a ; b)");
        const Rel all = ops.seqWhere(a, b, [](std::size_t, std::vector<char>& row) {
            std::fill(row.begin(), row.end(), 1);
        });
        requireSameTerms(whole, all, "a ; b, every pair kept");
    }
}

namespace {

/** Each relation of `model` read per pair against built whole, on the corpus programs of at
 *  most `maxEvents` events (every `stride`-th one), half of them with the encoding where events
 *  after a gate may not happen; `readings`: each Reading choice under its own literal. Returns
 *  how many programs had at most `maxEvents` events, and how many relations were compared. */
std::pair<std::size_t, std::size_t> sameTermsOnCorpus(const cat::ResolvedModel& model,
                                                      std::size_t maxEvents, std::size_t stride,
                                                      bool readings) {
    std::set<std::string> relations;
    for (const auto& def : model.definitions)
        if (def.kind == cat::Kind::Relation) relations.insert(def.name);
    std::size_t programs = 0, compared = 0;
    for (const std::filesystem::path& file : testing::corpusFiles()) {
        ir::Program p = lower::lowerTest(litmus::parseLitmusFile(file.string()));
        if (p.events.size() > maxEvents || ++programs % stride != 0) continue;
        Z3Context ctx;
        const bool hangs = programs % 2 == 0; // events after a gate may not happen
        ProgramEncoder pe(ctx, p, hangs);
        z3::expr_vector lemmas(ctx);
        Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
        using Ev = Evaluator<Z3Algebra>;
        Ev::Base whole{[&](ir::Tag t) { return pe.baseSet(t); },
                       [&](ir::Rel r) { return pe.baseRelation(r); },
                       {},
                       {}};
        if (readings)
            whole.reading = [&](const std::string& key) { return ctx.bool_const(key.c_str()); };
        Ev::Base pairwise = whole;
        pairwise.dense = [&](ir::Rel r) -> std::shared_ptr<const DenseBase<z3::expr>> {
            const ir::PairTest test = ir::densePairTest(p, r);
            if (test == nullptr) return nullptr;
            return std::make_shared<const DenseBase<z3::expr>>(DenseBase<z3::expr>{
                [&pe, test](int a, int b) { return pe.densePairHolds(test, a, b); },
                [&pe](int a, int b) { return pe.bothExist(a, b); }, std::nullopt});
        };
        // Without a polarity every closure is exact: both sides build the same terms.
        Ev byWhole(alg, p.events.size(), model, whole);
        Ev byPair(alg, p.events.size(), model, pairwise);
        for (const std::string& name : relations) {
            INFO(file.string() << ": " << name);
            requireSameTerms(byWhole.definition(name)->rel, byPair.definition(name)->rel, name);
            ++compared;
        }
    }
    return {programs, compared};
}

} // namespace

// [corpus]: the kernel tier (80 s of the sanitized fast tier).
TEST_CASE("the model's relations read per pair have the terms of whole ones, on the corpus",
          "[pairwise][z3][corpus]") {
    const auto [programs, compared] = sameTermsOnCorpus(testing::builtinModel(), 24, 1, false);
    CHECK(programs > 100);
    CHECK(compared > 0);
}

// [corpus]: the kernel tier.
TEST_CASE("under every reading at once, relations read per pair have the terms of whole ones",
          "[pairwise][z3][corpus]") {
    // Each definition a variant changes is a Reading choice (cat/Readings.hpp), read per pair
    // where relations are (Pairwise::Kind::Select) and built whole otherwise.
    static const auto model = cat::resolveModel(cat::builtinModelWithReadings());
    REQUIRE(!model->readings.empty());
    const auto [programs, compared] = sameTermsOnCorpus(*model, 16, 3, true);
    CHECK(programs > 30);
    CHECK(compared > 0);
}

TEST_CASE("an empty factor, operand or minuend leaves the operands after it unread",
          "[pairwise][z3]") {
    // tc-issue's `(fb-order | commit-fb) ; eo-chain ; fa-order` on a kernel without tcgen05:
    // its closure over every event (880 MiB on CUTLASS example 48) was made and never read.
    const auto model = cat::resolveModel(cat::parseModelText(R"(let big = rf+
let none = [MB] ; po
let after-empty = none ; big ; po
let meets-empty = none & big
let from-empty = none \ big
let empty-last = big ; none
acyclic po as Program-Order
)",
                                                             "empty-factors.cat"));
    const ir::Program p = messagePassing();
    Z3Context ctx;
    ProgramEncoder pe(ctx, p, false);
    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    using Ev = Evaluator<Z3Algebra>;
    int rfReads = 0;
    Ev::Base base{[&](ir::Tag t) { return pe.baseSet(t); },
                  [&](ir::Rel r) {
                      rfReads += r == ir::Rel::Rf ? 1 : 0;
                      return pe.baseRelation(r);
                  },
                  {},
                  {}};
    Ev ev(alg, p.events.size(), *model, base);
    for (const char* name : {"after-empty", "meets-empty", "from-empty"}) {
        INFO(name);
        CHECK(ev.definition(name)->rel.entries() == 0);
        CHECK(rfReads == 0);
    }
    // Read where the empty factor comes after it, and then empty all the same.
    CHECK(ev.definition("empty-last")->rel.entries() == 0);
    CHECK(rfReads == 1);
    CHECK(ev.definition("big")->rel.entries() > 0);
}

TEST_CASE("a cycle over a lazy closure makes its pairs only on paths that may close it",
          "[pairwise][lazy-closure][z3]") {
    // The proxy rule's shape, `rf ; (xo & pf-cov^-1) ; po ; xo?`: an intersection of a lazy
    // closure with a built relation, inside a cycle. With `back` the closure can return from
    // the second thread to the first (through rf^-1), without it never.
    for (const bool back : {false, true}) {
        INFO(back);
        const std::string closure = back ? "(po | rf | rf^-1)+" : "(po | rf)+";
        const auto model = cat::resolveModel(cat::parseModelText(
            "let c = " + closure + "\nlet a = c & rf\nirreflexive (po ; a ; po ; c?) as Cyc\n",
            "cycle-over-lazy.cat"));
        const ir::Program p = messagePassing();
        Z3Context ctx;
        ProgramEncoder pe(ctx, p, false);
        z3::expr_vector lemmas(ctx);
        std::vector<ClosureRecord> closures;
        Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
        alg.closures = &closures;
        using Ev = Evaluator<Z3Algebra>;
        Ev::Base base{[&](ir::Tag t) { return pe.baseSet(t); },
                      [&](ir::Rel r) { return pe.baseRelation(r); },
                      {},
                      [](ir::Rel) { return std::shared_ptr<const DenseBase<z3::expr>>(); }};
        const cat::Polarity polarity = cat::analysePolarity(*model);
        Ev ev(alg, p.events.size(), *model, base, &polarity);
        ev.lazyClosuresFrom(0);
        const Rel cycle = ev.reflexivePart(*model->axioms.at(0).expr);
        REQUIRE(closures.size() == 1);
        REQUIRE(closures[0].lazy != nullptr);
        const std::size_t made = closures[0].lazy->made().size();
        CHECK((cycle.entries() > 0) == back);
        CHECK((made > 0) == back);
        // The intersection has pairs to make: built whole before the cycle read it, it made
        // them whether or not a cycle could close.
        ev.definition("a");
        CHECK(closures[0].lazy->made().size() > made);
    }
}

TEST_CASE("a composition over a lazy closure reads each pair of its operands once",
          "[pairwise][lazy-closure][z3]") {
    // `(c ; d) ; d` with c a lazy closure: the outer composition reads the inner one at (a, k)
    // for every b it is asked about. Kept once read, the inner pairs cost n^3 reads of d's
    // conditions over every pair (n^4 without), and a second read costs none.
    const std::size_t n = 5;
    Z3Context ctx;
    z3::expr_vector lemmas(ctx);
    Z3Algebra alg{ctx, &lemmas, nullptr, &ctx.freshNames};
    Pairwise<Z3Algebra> pw{alg, n};
    const std::vector<std::vector<bool>> all(n, std::vector<bool>(n, true));
    const std::vector<std::vector<bool>> none(n, std::vector<bool>(n, false));
    auto closure = std::make_shared<const LazyClosure<z3::expr>>(
        all, none, [&alg] { return alg.fresh(); }, alg.tru(), alg.fls());
    std::size_t reads = 0;
    auto dense = std::make_shared<const DenseBase<z3::expr>>(DenseBase<z3::expr>{
        [](int, int) { return true; },
        [&ctx, &reads](int i, int j) {
            ++reads;
            return ctx.bool_const(("d" + std::to_string(i) + "_" + std::to_string(j)).c_str());
        },
        std::nullopt});
    auto c = std::make_shared<Node>();
    c->kind = Kind::Closure;
    c->closure = closure;
    c->lazy = true;
    auto d = std::make_shared<Node>();
    d->kind = Kind::Dense;
    d->dense = dense;
    auto inner = std::make_shared<Node>();
    inner->kind = Kind::Seq;
    inner->args = {c, d};
    inner->lazy = true;
    Node outer;
    outer.kind = Kind::Seq;
    outer.args = {inner, d};
    outer.lazy = true;

    std::vector<z3::expr> first;
    for (int a = 0; a < static_cast<int>(n); ++a)
        for (int b = 0; b < static_cast<int>(n); ++b)
            first.push_back(pw.at(outer, a, b));
    // d's conditions read: n^3 by the inner pairs (each once), n^3 by the outer composition.
    CHECK(reads == 2 * n * n * n);
    std::size_t k = 0;
    for (int a = 0; a < static_cast<int>(n); ++a)
        for (int b = 0; b < static_cast<int>(n); ++b)
            CHECK(z3::eq(pw.at(outer, a, b), first[k++]));
    CHECK(reads == 2 * n * n * n);
    CHECK(closure->made().size() == n * n);
}
