// Random litmus generator: deterministic, always well-formed, and covering the instruction set.
#include "gen/RandomLitmus.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <catch2/catch.hpp>
#include <iostream>
#include <map>
#include <set>
#include <string>

using namespace ptxmc;
using ir::Tag;

namespace {

constexpr std::uint64_t kSeeds = 2000;

/** Lowers a generated test, reporting its text when it does not parse or lower. */
ir::Program lowerGenerated(const std::string& text, std::uint64_t seed) {
    try {
        return lower::lowerTest(litmus::parseLitmus(text, "gen.litmus"));
    } catch (const std::exception& e) {
        FAIL("seed " << seed << ": " << e.what() << "\n" << text);
    }
    return {};
}

bool has(const litmus::Instruction& i, const std::string& part) {
    return std::find(i.parts.begin(), i.parts.end(), part) != i.parts.end();
}

/** Feature names of one instruction: its family and the qualifiers that matter. */
std::vector<std::string> features(const litmus::Instruction& i) {
    std::vector<std::string> f;
    if (i.label) return {"spin loop"}; // the generator's labels head spin loops
    const std::string& op = i.parts[0];
    auto sem = [&](std::initializer_list<const char*> sems) {
        for (const char* s : sems)
            if (has(i, s)) {
                std::string name = op + "." + s;
                for (const char* sc : {"cta", "cluster", "gpu", "sys"})
                    if (has(i, sc)) name += std::string(".") + sc;
                return name;
            }
        return op + ".(none)";
    };
    if (op == "ld") f.push_back(sem({"weak", "relaxed", "acquire", "volatile"}));
    if (op == "st") f.push_back(sem({"weak", "relaxed", "release", "volatile"}));
    if (op == "atom" || op == "red") {
        f.push_back(sem({"relaxed", "acquire", "release", "acq_rel"}));
        for (const char* o : {"add", "exch", "cas", "and", "or", "xor", "max", "min"})
            if (has(i, o)) f.push_back(op + "." + o);
    }
    if (op == "ld" || op == "st" || op == "atom" || op == "red")
        if (has(i, "shared::cluster") && !i.operands.empty())
            for (const auto& o : i.operands)
                if (o.cta) f.push_back("remote shared access");
    if (op == "fence" || op == "membar") {
        std::string name = i.opcode;
        f.push_back(name);
        if (has(i, "proxy")) f.push_back("fence.proxy");
    }
    if (op == "bar" || op == "barrier")
        f.push_back(i.operands.size() == 2 ? "bar.sync N, count" : "bar.sync N");
    if (op == "sust" || op == "suld" || op == "tld" || op == "cold" || op == "ldc") f.push_back(op);
    if (op == "add" || op == "sub" || op == "mul") f.push_back("arith." + op);
    if (op == "setp") f.push_back("setp");
    if (op == "nondet") f.push_back("nondet.pred");
    if (i.guard) f.push_back(i.guard->negated ? "guard @!p" : "guard @p");
    if (op == "mbarrier") {
        std::string name = "mbarrier." + i.parts[1];
        if (i.guard) f.push_back("guarded mbarrier op");
        if (has(i, "expect_tx") && i.parts[1] == "arrive") name += ".expect_tx";
        f.push_back(name);
        if (has(i, "multicast::cluster::32b")) f.push_back(name + " multicast"); // 9.4
        if (i.parts[1] == "arrive" && i.operands[0].kind == litmus::Operand::Kind::Name)
            f.push_back("mbarrier.arrive token");
        if (i.parts[1] == "arrive" && i.operands[1].cta) f.push_back("mbarrier.arrive remote");
        if (i.parts[1] == "test_wait" || i.parts[1] == "try_wait") {
            f.push_back(has(i, "parity") ? "mbarrier wait parity" : "mbarrier wait token");
            if (has(i, "phase_type::conditional")) f.push_back("mbarrier wait conditional");
            if (!i.operands[0].elements.empty()) f.push_back("mbarrier wait report");
            f.push_back(i.operands[0].kind == litmus::Operand::Kind::Sink
                            ? "mbarrier wait blocking"
                            : "mbarrier wait register");
        }
    }
    if (op == "cp" && i.parts.size() > 2 && i.parts[1] == "async" && i.parts[2] != "bulk") {
        // non-bulk cp.async and its completion instructions (PTX ISA 9.7.10.28.3)
        const std::string& k = i.parts[2];
        f.push_back("cp.async " + (k == "mbarrier"
                                       ? (has(i, "noinc") ? std::string("mbarrier.arrive.noinc")
                                                          : std::string("mbarrier.arrive"))
                                       : k));
    } else if (op == "cp" && has(i, "reduce")) {
        f.push_back("bulk reduce");
    } else if (op == "cp") {
        if (has(i, "commit_group"))
            f.push_back("bulk commit_group");
        else if (has(i, "wait_group"))
            f.push_back(has(i, "read") ? "bulk wait_group.read" : "bulk wait_group");
        else if (has(i, "bulk_group"))
            f.push_back("bulk s2g");
        else
            f.push_back(has(i, "multicast::cluster") ? "bulk g2s multicast" : "bulk g2s");
    }
    if (op == "tcgen05") {
        const std::string& k = i.parts[1];
        f.push_back("tcgen05." + k);
        for (const auto& p : i.parts)
            if (p.rfind("cta_group::", 0) == 0) f.push_back("tcgen05 " + p);
        if (k == "mma") {
            for (const auto& p : i.parts)
                if (p.rfind("kind::", 0) == 0) f.push_back("mma " + p);
            f.push_back("mma idesc " + i.operands[3].name);
            const auto& en = i.operands[4];
            f.push_back(en.kind == litmus::Operand::Kind::Integer
                            ? "mma EN " + std::to_string(en.value)
                            : "mma EN register");
        }
        if (k == "cp") f.push_back("tcgen05.cp." + i.parts[3]);
        if (k == "ld" || k == "st")
            for (const auto& p : i.parts)
                if (p == "x1" || p == "x2") f.push_back("tcgen05." + k + "." + p);
        if (k == "commit" && has(i, "multicast::cluster")) f.push_back("tcgen05.commit multicast");
    }
    return f;
}

} // namespace

TEST_CASE("the generator is a pure function of seed and options", "[gen]") {
    for (std::uint64_t seed = 0; seed < 50; ++seed)
        REQUIRE(gen::randomLitmus(seed) == gen::randomLitmus(seed));
    std::set<std::string> distinct;
    for (std::uint64_t seed = 0; seed < 200; ++seed)
        distinct.insert(gen::randomLitmus(seed));
    REQUIRE(distinct.size() == 200);
    gen::GenOptions small;
    small.maxThreads = 2;
    small.maxInstructions = 5;
    REQUIRE(gen::randomLitmus(7, small) != gen::randomLitmus(7));
    REQUIRE(gen::randomLitmus(7, small) == gen::randomLitmus(7, small));
}

TEST_CASE("the generated text does not depend on the platform or compiler", "[gen]") {
    // FNV-1a over seeds 0..99. The generator draws one random number per statement and uses
    // no std distribution, so this holds on every platform; change it only together with the
    // generator (the new value is printed on failure).
    std::uint64_t h = 14695981039346656037ull;
    for (std::uint64_t seed = 0; seed < 100; ++seed)
        for (unsigned char ch : gen::randomLitmus(seed))
            h = (h ^ ch) * 1099511628211ull;
    CHECK(h == 0xd60d704038956878ull); // typed mul writes .lo (2026-12-03)
}

TEST_CASE("every generated test parses, lowers and stays within the limits", "[gen]") {
    for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
        const std::string text = gen::randomLitmus(seed);
        const ir::Program p = lowerGenerated(text, seed);
        const litmus::Test t = litmus::parseLitmus(text, "gen.litmus");
        INFO("seed " << seed << "\n" << text);
        REQUIRE(t.threads.size() <= 4);
        std::size_t instructions = 0;
        for (const auto& th : t.threads) {
            REQUIRE(!th.code.empty());
            instructions += th.code.size();
        }
        REQUIRE(instructions <= 12);
        REQUIRE(p.staticDeadlocks.empty());
        // Another CTA's shared memory or mbarrier is only reached through the cluster window.
        for (const auto& e : p.events) {
            if (e.has(Tag::EXEC) || e.location < 0) continue;
            const int owner = p.locations[static_cast<std::size_t>(e.location)].cta;
            if (owner < 0 || owner == e.cta) continue;
            REQUIRE(e.text.find("shared::cluster") != std::string::npos);
            for (const auto& th : p.threads)
                if (th.cta == owner) REQUIRE(th.cluster == e.cluster);
        }
        // Cheap for an explicit enumerator: few writes per cell, few operations per mbarrier,
        // and a bounded product of rf choices, coherence orders and mbarrier orders.
        std::map<int, int> writes, reads, mbOps;
        for (const auto& e : p.events) {
            if (e.has(Tag::W) && !e.has(Tag::IW)) ++writes[e.location];
            if (e.has(Tag::R)) ++reads[e.location];
            if (e.has(Tag::MB)) ++mbOps[e.location];
        }
        double candidates = 1;
        for (const auto& [l, n] : writes) {
            REQUIRE(n <= 3);
            for (int w = 2; w <= n; ++w)
                candidates *= w;
        }
        for (const auto& [l, n] : reads)
            for (int r = 0; r < n; ++r)
                candidates *= writes[l] + 1;
        for (const auto& [l, n] : mbOps) {
            REQUIRE(n <= 5);
            for (int o = 2; o <= n; ++o)
                candidates *= o;
        }
        REQUIRE(candidates <= 20000);
    }
}

namespace {

/** The family an opcode belongs to, as GenOptions names them. */
std::string familyOf(const litmus::Instruction& i) {
    const std::string& op = i.parts[0];
    if (op == "tcgen05") return "tcgen05";
    if (op == "wgmma") return "wgmma";
    if (op == "mbarrier") return "mbarrier";
    if (op == "cp") return "bulk";
    if (op == "sust" || op == "suld" || op == "tld" || op == "cold" || op == "ldc")
        return "proxies";
    if (op == "fence" && has(i, "proxy")) return has(i, "async") ? "async fence" : "proxies";
    return "generic";
}

} // namespace

TEST_CASE("options restrict the generated families and sizes", "[gen]") {
    for (int mask = 0; mask < 64; ++mask) {
        gen::GenOptions o;
        o.wgmma = mask & 32;
        o.tcgen05 = mask & 1;
        o.mbarrier = mask & 2;
        o.bulk = mask & 4;
        o.proxies = mask & 8;
        o.generic = mask & 16;
        std::set<std::string> allowed;
        for (const auto& [on, name] : {std::pair{o.tcgen05, "tcgen05"},
                                       {o.mbarrier, "mbarrier"},
                                       {o.bulk, "bulk"},
                                       {o.proxies, "proxies"},
                                       {o.generic, "generic"},
                                       {o.wgmma, "wgmma"}})
            if (on) allowed.insert(name);
        // fence.proxy.async belongs to every family of the async proxy; with no family at all
        // the generator falls back to generic, and an mbarrier-only thread may need a fence.
        if (o.proxies || o.bulk || o.tcgen05 || o.wgmma) allowed.insert("async fence");
        // wgmma's accumulator is set and read by ordinary instructions (mov)
        if (o.wgmma) allowed.insert("generic");
        if (allowed.empty() || allowed == std::set<std::string>{"mbarrier"})
            allowed.insert("generic");
        for (std::uint64_t seed = 0; seed < 40; ++seed) {
            o.maxThreads = 1 + static_cast<int>(seed % 4);
            o.maxCtas = 1 + static_cast<int>(seed / 4 % 2);
            o.maxInstructions = 1 + static_cast<int>(seed % 16);
            const std::string text = gen::randomLitmus(seed, o);
            INFO("options " << mask << ", seed " << seed << "\n" << text);
            lowerGenerated(text, seed);
            const litmus::Test t = litmus::parseLitmus(text, "gen.litmus");
            REQUIRE(static_cast<int>(t.threads.size()) <= o.maxThreads);
            std::size_t instructions = 0;
            std::set<int> ctas;
            for (const auto& th : t.threads) {
                instructions += th.code.size();
                ctas.insert(th.cta);
                for (const auto& i : th.code) {
                    if (i.label) continue; // a spin loop's label
                    INFO(i.opcode);
                    REQUIRE(allowed.count(familyOf(i)));
                }
            }
            REQUIRE(static_cast<int>(instructions) <= o.maxInstructions);
            REQUIRE(static_cast<int>(ctas.size()) <= o.maxCtas);
            if (!o.proxies) REQUIRE(text.find(" aliases ") == std::string::npos);
        }
    }
}

TEST_CASE("over many seeds every instruction family appears", "[gen]") {
    std::map<std::string, int> seen;
    int sameAcc = 0, diffAcc = 0, multiRowShift = 0;
    for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
        const std::string text = gen::randomLitmus(seed);
        const litmus::Test t = litmus::parseLitmus(text, "gen.litmus");
        for (const auto& th : t.threads)
            for (const auto& i : th.code)
                for (const auto& f : features(i))
                    ++seen[f];
        const ir::Program p = lowerGenerated(text, seed);
        std::vector<int> accs;
        for (const auto& e : p.events) {
            if (e.has(Tag::MMA)) accs.push_back(e.accumulator);
            if (e.has(Tag::SHIFT)) ++multiRowShift;
        }
        for (std::size_t a = 0; a < accs.size(); ++a)
            for (std::size_t b = a + 1; b < accs.size(); ++b)
                ++(accs[a] == accs[b] ? sameAcc : diffAcc);
        ++seen[ir::quantifierText(t.condition->quantifier)];
        const std::string cond = text.substr(text.rfind('\n', text.size() - 2));
        for (const char* op : {"/\\", "\\/", "~(", "=>"})
            if (cond.find(op) != std::string::npos) ++seen[std::string("condition ") + op];
        if (t.threads.size() > 1 && t.threads[0].cluster) ++seen["cluster"];
    }
    const std::vector<std::string> required{"cp.async ca",
                                            "cp.async cg",
                                            "cp.async commit_group",
                                            "cp.async wait_group",
                                            "cp.async wait_all",
                                            "cp.async mbarrier.arrive",
                                            "cp.async mbarrier.arrive.noinc",
                                            "bulk reduce",
                                            "setp",
                                            "nondet.pred",
                                            "spin loop",
                                            "guarded mbarrier op",
                                            "guard @p",
                                            "guard @!p",
                                            "ld.(none)",
                                            "ld.weak",
                                            "ld.volatile",
                                            "st.(none)",
                                            "st.weak",
                                            "st.volatile",
                                            "atom.(none)",
                                            "atom.acq_rel.gpu",
                                            "red.(none)",
                                            "red.release.sys",
                                            "atom.add",
                                            "atom.exch",
                                            "atom.cas",
                                            "atom.and",
                                            "atom.or",
                                            "atom.xor",
                                            "atom.max",
                                            "atom.min",
                                            "red.add",
                                            "red.and",
                                            "red.or",
                                            "red.xor",
                                            "red.max",
                                            "red.min",
                                            "remote shared access",
                                            "membar.cta",
                                            "membar.gl",
                                            "membar.sys",
                                            "fence.sc.cta",
                                            "fence.sc.cluster",
                                            "fence.sc.gpu",
                                            "fence.sc.sys",
                                            "fence.acq_rel.cta",
                                            "fence.acq_rel.sys",
                                            "fence.proxy.async",
                                            "fence.proxy.async.global",
                                            "fence.proxy.async.shared::cta",
                                            "fence.proxy.async.shared::cluster",
                                            "fence.proxy.alias",
                                            "fence.proxy.surface",
                                            "fence.proxy.texture",
                                            "fence.proxy.constant",
                                            "bar.sync N",
                                            "bar.sync N, count",
                                            "sust",
                                            "suld",
                                            "tld",
                                            "cold",
                                            "ldc",
                                            "arith.add",
                                            "arith.sub",
                                            "arith.mul",
                                            "mbarrier.init",
                                            "mbarrier.arrive",
                                            "mbarrier.arrive.expect_tx",
                                            "mbarrier.expect_tx",
                                            "mbarrier.complete_tx",
                                            "mbarrier.arrive token",
                                            "mbarrier.arrive remote",
                                            "mbarrier.arrive multicast",
                                            "mbarrier.expect_tx multicast",
                                            "mbarrier.complete_tx multicast",
                                            "mbarrier.test_wait",
                                            "mbarrier.try_wait",
                                            "mbarrier wait parity",
                                            "mbarrier wait token",
                                            "mbarrier wait conditional",
                                            "mbarrier wait report",
                                            "mbarrier wait blocking",
                                            "mbarrier wait register",
                                            "bulk g2s",
                                            "bulk g2s multicast",
                                            "bulk s2g",
                                            "bulk commit_group",
                                            "bulk wait_group",
                                            "bulk wait_group.read",
                                            "tcgen05.mma",
                                            "mma kind::f16",
                                            "mma kind::tf32",
                                            "mma idesc I0",
                                            "mma idesc I1",
                                            "mma EN 0",
                                            "mma EN 1",
                                            "mma EN register",
                                            "tcgen05.cp.128x256b",
                                            "tcgen05.cp.4x256b",
                                            "tcgen05.cp.128x128b",
                                            "tcgen05.cp.64x128b",
                                            "tcgen05.cp.32x128b",
                                            "tcgen05.shift",
                                            "tcgen05.ld.x1",
                                            "tcgen05.ld.x2",
                                            "tcgen05.st.x1",
                                            "tcgen05.st.x2",
                                            "tcgen05.wait::ld",
                                            "tcgen05.wait::st",
                                            "tcgen05.commit",
                                            "tcgen05.commit multicast",
                                            "tcgen05.fence::before_thread_sync",
                                            "tcgen05.fence::after_thread_sync",
                                            "tcgen05.alloc",
                                            "tcgen05.dealloc",
                                            "tcgen05.relinquish_alloc_permit",
                                            "tcgen05 cta_group::1",
                                            "tcgen05 cta_group::2",
                                            "exists",
                                            "~exists",
                                            "forall",
                                            "condition /\\",
                                            "condition \\/",
                                            "condition ~(",
                                            "cluster"};
    for (const char* sem : {"relaxed", "acquire"})
        for (const char* sc : {"cta", "cluster", "gpu", "sys"})
            REQUIRE(seen[std::string("ld.") + sem + "." + sc] > 0);
    for (const char* sem : {"relaxed", "release"})
        for (const char* sc : {"cta", "cluster", "gpu", "sys"})
            REQUIRE(seen[std::string("st.") + sem + "." + sc] > 0);
    for (const auto& r : required) {
        INFO(r);
        CHECK(seen[r] > 0);
    }
    CHECK(sameAcc > 0);
    CHECK(diffAcc > 0);
    CHECK(multiRowShift > 0);
}

TEST_CASE("distribution of generated features (run on demand)", "[.][gen-stats]") {
    std::map<std::string, int> tests;
    for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
        const litmus::Test t = litmus::parseLitmus(gen::randomLitmus(seed), "gen.litmus");
        std::set<std::string> here;
        for (const auto& th : t.threads)
            for (const auto& i : th.code)
                for (const auto& f : features(i))
                    here.insert(f);
        here.insert(std::to_string(t.threads.size()) + " thread(s)");
        for (const auto& f : here)
            ++tests[f];
    }
    for (const auto& [f, n] : tests)
        std::cout << f << "\t" << n << "\n";
}
