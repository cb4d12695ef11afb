// Asynchronous copies: bulk global->shared on an mbarrier (sometimes multicast), bulk copies
// and reductions shared->global in groups, non-bulk cp.async with groups or an mbarrier.
#include "gen/Families.hpp"
#include "ptx/Tables.hpp"

namespace ptxmc::gen {

bool bulkToShared(Draft& d, int t, int s, int inst, int mb, bool multicast, int size) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    const int g = d.pickLoc(Space::Global, -1, false);
    if (g < 0) return false;
    std::vector<int> targets{inst};
    int mask = 0;
    if (multicast) {
        // Ranks of the 2-CTA cluster are the CTA numbers; every target needs s and mb.
        if (d.peer(c) < 0 || d.loc(mb).programInit) return false;
        mask = r.pick({3, 3, 1, 2});
        targets.clear();
        for (int cta = 0; cta < 2; ++cta)
            if (mask >> cta & 1) targets.push_back(cta);
        for (int cta : std::vector<int>{c, targets[0], targets.back()}) {
            d.ensure(s, cta);
            d.ensure(mb, cta);
        }
        inst = c; // the operands name the issuer's instances; the mask picks the targets
    }
    using PSpace = ptx::StateSpace;
    const PSpace dst = multicast || inst != c ? PSpace::SharedCluster
                                              : r.pick({PSpace::SharedCluster, PSpace::SharedCta});
    ptx::BulkCopy copy;
    copy.dst = dst;
    copy.src = PSpace::Global;
    copy.viaMbarrier = true;
    copy.multicast = multicast;
    if (r.chance(25)) { // .relaxed.scope.b128 (9.3): strong element-wise accesses
        copy.sem = ptx::Sem::Relaxed;
        copy.scope = r.pick({ptx::Scope::Cta, ptx::Scope::Cluster, ptx::Scope::Gpu});
        copy.types = {ptx::Type{'b', 128}};
    }
    if (multicast && r.chance(30)) copy.multicastBits = r.pick({16, 32}); // ctaMask width (9.4)
    d.emit(t, text(copy, d.addr(s, c, inst) + ", " + d.addr(g, c, -1) + ", " +
                             std::to_string(size) + ", " + d.addr(mb, c, inst) +
                             (multicast ? ", " + std::string(mask == 3   ? "0b11"
                                                             : mask == 1 ? "0x1"
                                                                         : "2")
                                        : "")));
    const std::vector<std::int64_t> src = d.read(d.key(g, -1));
    for (int cta : targets) {
        d.write(d.key(s, cta), src);
        d.mbOp(d.key(mb, cta));
    }
    return true;
}

bool bulkToGlobal(Draft& d, int t, bool reduce) {
    Rng& r = d.rng();
    const int c = d.ctaOf(t);
    const int s = d.pickLoc(Space::Shared, c, true);
    const int g = d.pickLoc(Space::Global, -1, true);
    if (s < 0 || g < 0) return false;
    if (d.opt().generic && r.chance(40)) {
        // The canonical producer: generic write, proxy fence, then the async-proxy copy.
        store(d, t, s, c, d.freshConst());
        if (r.chance(70)) asyncFence(d, t, Space::Shared);
    }
    ptx::BulkCopy copy; // .bulk_group, no multicast
    copy.dst = ptx::StateSpace::Global;
    copy.src = ptx::StateSpace::SharedCta;
    if (reduce) {
        // cp.reduce.async.bulk: each element of g becomes g OP s (PTX ISA {CpReduceAsyncBulk})
        const std::string op = r.pick({"add", "add", "and", "or", "xor", "max", "min"});
        copy.reduce = *ptx::valueOf(ptx::kAtomOps, op);
        // the table of valid combinations: the bit-size operations on .b32, the others on .u32
        const bool bitwise = op == "and" || op == "or" || op == "xor";
        copy.types = {ptx::Type{bitwise ? 'b' : 'u', 32}};
        std::vector<std::int64_t> written;
        for (std::int64_t old : d.read(d.key(g, -1)))
            for (std::int64_t v : d.read(d.key(s, c)))
                written.push_back(apply(op, old, v));
        d.emit(t, text(copy, d.addr(g, c, -1) + ", " + d.addr(s, c, c) + ", 16"));
        d.write(d.key(g, -1), written);
    } else {
        d.emit(t, text(copy, d.addr(g, c, -1) + ", " + d.addr(s, c, c) + ", " +
                                 std::to_string(r.pick({16, 16, 32}))));
        d.write(d.key(g, -1), d.read(d.key(s, c)));
    }
    ++d.th(t).openCopies;
    if (r.chance(20)) return true; // sometimes the copy's group is never committed
    d.emit(t, text(ptx::BulkCommit{}));
    d.th(t).openCopies = 0;
    ++d.th(t).groups;
    if (r.chance(25)) return true;
    const int n = d.th(t).groups > 1 && r.chance(40) ? 1 : 0;
    d.emit(t, text(ptx::BulkWait{r.chance(40)}, std::to_string(n)));
    return true;
}

namespace {

/** A TMA-style load: expect the bytes, copy, and sometimes wait and read the destination. */
bool fragToShared(Draft& d) {
    Rng& r = d.rng();
    const int t = d.pickThread();
    const int c = d.ctaOf(t);
    const int inst = d.peer(c) >= 0 && r.chance(15) ? d.peer(c) : c;
    const int s = d.pickLoc(Space::Shared, inst, true);
    const int mb = d.pickMbarrier(t, inst);
    if (s < 0 || mb < 0) return false;
    const bool multicast = d.peer(c) >= 0 && inst == c && !d.loc(mb).programInit && r.chance(35);
    const int size = r.pick({16, 16, 32, 64});
    // Mostly the transaction count balances the copy, so the phase can complete.
    const bool mbOps = d.opt().mbarrier; // else only the copy itself acts on the mbarrier
    if (mbOps && r.chance(70)) {
        if (inst == c && r.chance(70))
            arrive(d, t, mb, inst, size);
        else
            txOp(d, t, mb, inst, false, size);
    }
    if (!bulkToShared(d, t, s, inst, mb, multicast, size)) return false;
    if (mbOps && multicast && r.chance(60)) {
        // The peer CTA expects the bytes on its own mbarrier too.
        const int other = d.pickThreadIn(d.peer(c));
        arrive(d, other, mb, d.peer(c), size);
    }
    if (mbOps && r.chance(50)) {
        const int reader = d.pickThreadIn(inst);
        mbWait(d, reader, mb, r.chance(70));
        if (d.opt().generic) load(d, reader, s, inst);
    }
    return true;
}

bool fragToGlobal(Draft& d) {
    // two draws: sequenced, since the order of a call's arguments is the compiler's choice
    const int t = d.pickThread();
    const bool reduce = d.rng().chance(30);
    return bulkToGlobal(d, t, reduce);
}

/**
 * Non-bulk cp.async into the thread's shared memory (PTX ISA {NonBulkCopies}): completed by a
 * cp.async-group and its wait, by cp.async.mbarrier.arrive{.noinc} (then sometimes a reader
 * waits on the mbarrier), or by nothing.
 */
bool fragCpAsync(Draft& d) {
    Rng& r = d.rng();
    const int t = d.pickThread();
    const int c = d.ctaOf(t);
    const int s = d.pickLoc(Space::Shared, c, true);
    const int g = d.pickLoc(Space::Global, -1, false);
    if (s < 0 || g < 0) return false;
    const bool cg = r.chance(40);
    d.emit(t, text(ptx::CpAsync{cg, ptx::StateSpace::Shared, false, {}},
                   d.addr(s, c, c) + ", " + d.addr(g, c, -1) + ", " + (cg ? "16" : "4")));
    d.write(d.key(s, c), d.read(d.key(g, -1)));
    const int how = r.range(0, 3);
    if (how == 0) {
        d.emit(t, text(ptx::BulkCommit{true}));
        if (r.chance(70)) d.emit(t, text(ptx::BulkWait{false, true, false}, "0"));
    } else if (how == 1) {
        d.emit(t, text(ptx::BulkWait{false, true, true}));
    } else if (how == 2 && d.opt().mbarrier) {
        const int mb = d.pickMbarrier(t, c);
        if (mb < 0) return true;
        const bool noinc = r.chance(40);
        d.emit(t, text(ptx::CpAsyncArrive{noinc, {ptx::StateSpace::SharedCta, true}},
                       d.addr(mb, c, c)));
        // .noinc: one arrival the init count must hold; otherwise an increment, then an
        // arrival that takes it back: two operations on the object, no net arrival
        if (noinc) {
            d.mbArrive(d.key(mb, c));
        } else {
            d.mbOp(d.key(mb, c));
            d.mbOp(d.key(mb, c));
        }
        if (r.chance(50)) {
            const int reader = d.pickThreadIn(c);
            mbWait(d, reader, mb, r.chance(70));
            if (d.opt().generic) load(d, reader, s, c);
        }
    }
    return true;
}

/** A lone commit_group / wait_group: empty groups are legal. */
bool fragGroupOp(Draft& d) {
    const int t = d.pickThread();
    if (d.rng().chance(50)) {
        d.emit(t, text(ptx::BulkCommit{}));
        d.th(t).openCopies = 0;
        ++d.th(t).groups;
    } else {
        d.emit(t, text(ptx::BulkWait{d.rng().chance(50)}, "0"));
    }
    return true;
}

} // namespace

namespace {

/** A consumer's shape: spin on a loaded value, then issue a bulk copy on the loop's exit path. */
bool fragSpinThenCopy(Draft& d) {
    if (!d.opt().generic) return false; // the spin's load, setp and bra are generic
    int t = d.pickThread();
    return spin(d, t) && bulkToGlobal(d, t, d.rng().chance(20));
}

} // namespace

std::vector<std::pair<Fragment, int>> bulkFragments() {
    return {{fragToShared, 5},
            {fragToGlobal, 4},
            {fragGroupOp, 1},
            {fragCpAsync, 3},
            {fragSpinThenCopy, 1}};
}

} // namespace ptxmc::gen
