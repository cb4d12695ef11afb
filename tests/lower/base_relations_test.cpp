// Program-determined base relations, checked directly on small lowered programs (the
#include "../unit/LitmusText.hpp"
// differential check between engines cannot see a mistake both engines inherit from here).
#include "ir/BaseRelations.hpp"
#include "ir/Gates.hpp"
#include "litmus/Parser.hpp"
#include "lower/Lowerer.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

using namespace ptxmc;
using ir::Tag;
using testing::lowered;

namespace {

/** The issue-level events written `opcode`, in program order (exec events add their role). */
std::vector<int> eventsOf(const ir::Program& p, const std::string& opcode) {
    std::vector<int> out;
    for (const auto& e : p.events)
        if (e.text == opcode) out.push_back(e.id);
    return out;
}

/** The one event written `opcode`. */
int eventOf(const ir::Program& p, const std::string& opcode) {
    auto ids = eventsOf(p, opcode);
    REQUIRE(ids.size() == 1);
    return ids[0];
}

bool related(const ir::Pairs& r, int a, int b) {
    return std::find(r.begin(), r.end(), std::pair{a, b}) != r.end();
}

/** The accesses of `p` to location `name` among `r`'s targets of `from`. */
int targetsOn(const ir::Program& p, const ir::Pairs& r, int from, const std::string& name) {
    int n = 0;
    for (const auto& [a, b] : r) {
        const ir::Event& e = p.events[static_cast<std::size_t>(b)];
        if (a == from && e.location >= 0 &&
            p.locations[static_cast<std::size_t>(e.location)].name == name)
            ++n;
    }
    return n;
}

const char* kCopy = "cp.async.bulk.global.shared::cta.bulk_group";

const char* kBulkGroups = R"(PTX groups
{ s1 @ shared 0 = 0; s2 @ shared 0 = 0; g1 = 0; g2 = 0; }
 P0@cta 0,gpu 0 ;
 cp.async.bulk.global.shared::cta.bulk_group [g1], [s1], 16 ;
 cp.async.bulk.commit_group ;
 cp.async.bulk.global.shared::cta.bulk_group [g2], [s2], 16 ;
 cp.async.bulk.commit_group ;
 cp.async.bulk.wait_group 1 ;
 cp.async.bulk.wait_group 0 ;
exists (g1 == 0)
)";

} // namespace

TEST_CASE("po orders issue-level events only, ae links an issue to its own events",
          "[base-relations]") {
    auto p = lowered(kBulkGroups);
    auto po = ir::staticRelation(p, ir::Rel::Po);
    auto ae = ir::staticRelation(p, ir::Rel::Ae);
    auto copies = eventsOf(p, kCopy);
    REQUIRE(copies.size() == 2);
    int copy1 = copies[0], copy2 = copies[1];
    REQUIRE(related(po, copy1, copy2));
    REQUIRE_FALSE(related(po, copy2, copy1));
    for (const auto& e : p.events) {
        if (e.issue < 0) continue;
        REQUIRE(related(ae, e.issue, e.id));
        for (const auto& [a, b] : po)
            REQUIRE((a != e.id && b != e.id)); // asynchronous accesses are not in po (8.9.1.1)
    }
}

TEST_CASE("iico: inside one copy, its read before its write", "[base-relations]") {
    auto p = lowered(kBulkGroups);
    auto iico = ir::staticRelation(p, ir::Rel::Iico);
    auto ae = ir::staticRelation(p, ir::Rel::Ae);
    int copy1 = eventsOf(p, kCopy).at(0);
    REQUIRE(targetsOn(p, ae, copy1, "s1") == 1);
    REQUIRE(targetsOn(p, ae, copy1, "g1") == 1);
    for (const auto& [a, b] : iico) {
        const ir::Event& from = p.events[static_cast<std::size_t>(a)];
        const ir::Event& to = p.events[static_cast<std::size_t>(b)];
        REQUIRE(from.issue == to.issue); // never across two operations
        REQUIRE_FALSE(to.has(Tag::R));   // a read is never after anything of its operation
    }
    int reads = 0;
    for (const auto& [a, b] : iico)
        reads += p.events[static_cast<std::size_t>(a)].issue == copy1 &&
                 p.events[static_cast<std::size_t>(a)].has(Tag::R);
    REQUIRE(reads >= 1);
}

TEST_CASE("bwait: wait_group N covers all but the N most recent groups", "[base-relations]") {
    auto p = lowered(kBulkGroups);
    auto bwait = ir::staticRelation(p, ir::Rel::Bwait);
    std::vector<int> commits, waits;
    for (const auto& e : p.events) {
        if (e.has(Tag::BCOMMIT)) commits.push_back(e.id);
        if (e.has(Tag::BWAIT)) waits.push_back(e.id);
    }
    REQUIRE(commits.size() == 2);
    REQUIRE(waits.size() == 2);
    REQUIRE(related(bwait, commits[0], waits[0]));       // wait_group 1: the older group
    REQUIRE_FALSE(related(bwait, commits[1], waits[0])); // ... not the newer one
    REQUIRE(related(bwait, commits[0], waits[1]));       // wait_group 0: both
    REQUIRE(related(bwait, commits[1], waits[1]));
}

TEST_CASE("cta-shared and cluster-shared: the shared memory of a CTA and of its cluster",
          "[base-relations]") {
    // The state-space windows of proxy fences (pf-covers in ptx.cat) are built from these.
    auto p = lowered(R"(PTX windows
{ a @ shared 0 = 0; b @ shared 1 = 0; c @ shared 2 = 0; g = 0; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 | P2@cta 2,cluster 1,gpu 0 ;
 fence.proxy.async.shared::cta | ld.shared::cta.u32 r0, [b] | ld.shared::cta.u32 r0, [c] ;
 ld.shared::cta.u32 r0, [a] | | ;
 ld.global.u32 r1, [g] | | ;
exists (P0:r0 == 1)
)");
    auto cta = ir::staticRelation(p, ir::Rel::CtaShared);
    auto cluster = ir::staticRelation(p, ir::Rel::ClusterShared);
    int f = eventOf(p, "fence.proxy.async.shared::cta");
    REQUIRE(targetsOn(p, cta, f, "a") == 2); // its initial write and the load
    REQUIRE(targetsOn(p, cta, f, "b") == 0); // another CTA's shared memory
    REQUIRE(targetsOn(p, cta, f, "g") == 0); // not shared memory
    REQUIRE(targetsOn(p, cluster, f, "a") == 2);
    REQUIRE(targetsOn(p, cluster, f, "b") == 2); // a CTA of the same cluster
    REQUIRE(targetsOn(p, cluster, f, "c") == 0); // another cluster
    REQUIRE(targetsOn(p, cluster, f, "g") == 0);
}

TEST_CASE("sr and scopes: .cta includes the CTA, .gpu the GPU", "[base-relations]") {
    auto p = lowered(R"(PTX scopes
{ x = 0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 0,gpu 0 ;
 st.relaxed.cta.u32 [x], 1 | ld.relaxed.gpu.u32 r0, [x] | ld.relaxed.cta.u32 r0, [x] ;
exists (P1:r0 == 1)
)");
    auto sr = ir::staticRelation(p, ir::Rel::Sr);
    int st = eventOf(p, "st.relaxed.cta.u32");
    int ldGpu = eventOf(p, "ld.relaxed.gpu.u32");
    int ldCta = eventOf(p, "ld.relaxed.cta.u32");
    REQUIRE(related(sr, st, ldCta));       // same CTA, both scopes include each other
    REQUIRE_FALSE(related(sr, st, ldGpu)); // .cta of CTA 0 does not include CTA 1
    REQUIRE(ir::scopeIncludes(p.events[static_cast<std::size_t>(ldGpu)],
                              p.events[static_cast<std::size_t>(st)]));
}

TEST_CASE("rmw pairs an atom's read with its write, syncbar pairs bar.sync across threads",
          "[base-relations]") {
    auto p = lowered(R"(PTX rmw-bar
{ x = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 atom.relaxed.gpu.add.u32 r0, [x], 1 | bar.sync 0 ;
 bar.sync 0 | ;
exists (x == 1)
)");
    auto rmw = ir::staticRelation(p, ir::Rel::Rmw);
    REQUIRE(rmw.size() == 1);
    const ir::Event& r = p.events[static_cast<std::size_t>(rmw[0].first)];
    const ir::Event& w = p.events[static_cast<std::size_t>(rmw[0].second)];
    REQUIRE((r.has(Tag::R) && w.has(Tag::W) && r.location == w.location));
    auto syncbar = ir::staticRelation(p, ir::Rel::Syncbar);
    REQUIRE(syncbar.size() == 2); // each thread's arrival before the other's completion
    for (const auto& [a, b] : syncbar) {
        REQUIRE(p.events[static_cast<std::size_t>(a)].has(Tag::BAR_ARRIVE));
        REQUIRE(p.events[static_cast<std::size_t>(b)].has(Tag::BAR_WAIT));
        REQUIRE(p.events[static_cast<std::size_t>(a)].thread !=
                p.events[static_cast<std::size_t>(b)].thread);
    }
}

TEST_CASE("real-time order: po, ae and iico transitively reduced, with the same closure",
          "[base-relations]") {
    auto p = lowered(kBulkGroups);
    std::size_t n = p.events.size();
    auto closure = [&](const ir::Pairs& pairs) {
        std::vector<std::vector<bool>> d(n, std::vector<bool>(n, false));
        for (const auto& [a, b] : pairs)
            d[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = true;
        for (std::size_t k = 0; k < n; ++k)
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j)
                    d[i][j] = d[i][j] || (d[i][k] && d[k][j]);
        return d;
    };
    ir::Pairs all;
    for (ir::Rel rel : {ir::Rel::Po, ir::Rel::Ae, ir::Rel::Iico})
        for (const auto& pair : ir::staticRelation(p, rel))
            all.push_back(pair);
    auto reduced = ir::realTimeOrder(p);
    REQUIRE(closure(reduced) == closure(all));
    auto po = ir::staticRelation(p, ir::Rel::Po);
    auto copies = eventsOf(p, kCopy);
    REQUIRE(related(po, copies[0], copies[1]));
    // A po pair with an issue-level event between them is implied, so left out.
    REQUIRE_FALSE(related(reduced, copies[0], copies[1]));
    REQUIRE(reduced.size() < all.size());
}

TEST_CASE("ctrl: a branch's condition sources to every later event of its thread, across the join",
          "[base-relations][control]") {
    ir::Program p = lowered(R"(PTX ctrl
{ x = 0; y = 0; z = 0; }
 P0@cta 0,gpu 0 ;
 ld.relaxed.gpu r0, [x] ;
 ld.relaxed.gpu r1, [y] ;
 beq r0, 0, LC00 ;
 st.relaxed.gpu [y], 1 ;
 LC00: ;
 st.relaxed.gpu [z], 1 ;
exists (z == 0)
)");
    auto ctrl = ir::staticRelation(p, ir::Rel::Ctrl);
    int ldx = eventsOf(p, "ld.relaxed.gpu")[0];
    auto stores = eventsOf(p, "st.relaxed.gpu");
    REQUIRE(stores.size() == 2);
    int ldy = eventsOf(p, "ld.relaxed.gpu")[1];
    CHECK(related(ctrl, ldx, stores[0]));       // inside the branch
    CHECK(related(ctrl, ldx, stores[1]));       // after the join
    CHECK_FALSE(related(ctrl, ldy, stores[1])); // r1 decides no branch
    CHECK_FALSE(related(ctrl, ldx, ldy));       // before the branch
    // The store inside the branch happens only when r0 != 0: its guard is a dependency too.
    CHECK(related(ir::staticRelation(p, ir::Rel::Dep), ldx, stores[0]));
    CHECK_FALSE(related(ir::staticRelation(p, ir::Rel::Dep), ldx, stores[1]));
}
