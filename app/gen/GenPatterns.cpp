// Message passing (write, fence, signal / wait, fence, read): most corpus tests, every family.
#include "gen/Families.hpp"

namespace ptxmc::gen {

namespace {

enum Data { kGeneric, kAlias, kTmem, kSmemToAsync, kBulk };
enum Signal { kFlag, kMbarrier, kBarrier, kCommit, kNone };

struct Plan {
    int p = 0, c = 0;   // producer and consumer threads
    int pc = 0, cc = 0; // their CTAs
    Data data = kGeneric;
    int dl = -1, dinst = -1; // the data location and the instance the consumer reads
    std::int64_t stale = 0;  // the value a reader sees if it misses the write
    int tmemOp = 0;          // kTmem: 0 mma, 1 cp, 2 shift, 3 st
    int mb = -1;             // kBulk: the mbarrier the copy completes on
};

bool writeData(Draft& d, Plan& m) {
    Rng& r = d.rng();
    const GenOptions& o = d.opt();
    const bool near = m.pc == m.cc || d.peer(m.pc) == m.cc;
    switch (m.data) {
    case kGeneric:
    case kAlias: {
        const bool shared = m.data == kGeneric && near && r.chance(40);
        m.dinst = shared ? m.cc : -1;
        m.dl = d.pickLoc(shared ? Space::Shared : Space::Global, m.dinst, true);
        if (m.dl < 0) return false;
        m.stale = d.cell(d.key(m.dl, m.dinst)).values[0];
        if (m.data == kAlias && (!o.generic || r.chance(50)))
            return aliasWrite(d, m.p, m.dl, d.freshConst());
        const int k = r.weighted({6, 2, 2});
        if (k == 1) return !atomic(d, m.p, m.dl, m.dinst).empty();
        if (k == 2) return reduction(d, m.p, m.dl, m.dinst);
        return store(d, m.p, m.dl, m.dinst, d.freshConst());
    }
    case kTmem: {
        // Another CTA sees the write only through the cta_group::2 pair's second instance.
        if (m.pc != m.cc && d.ctaGroup() != 2) return false;
        m.dl = pickTmem(d, m.p, true);
        if (m.dl < 0) return false;
        m.dinst = m.cc;
        m.stale = d.cell(d.key(m.dl, m.cc)).values[0];
        m.tmemOp = r.weighted({5, 3, d.loc(m.dl).rows > 1 ? 2 : 0, m.pc == m.cc ? 3 : 0});
        if (m.tmemOp == 0) return mma(d, m.p, m.dl);
        if (m.tmemOp == 1) return tcCopy(d, m.p, m.dl);
        if (m.tmemOp == 2) return tcShift(d, m.p, m.dl);
        return tcStore(d, m.p, m.dl);
    }
    case kSmemToAsync:
        // A generic write of shared memory that the consumer's tcgen05 op reads (async proxy).
        m.dinst = m.pc;
        m.dl = d.pickLoc(Space::Shared, m.pc, true);
        if (m.dl < 0) return false;
        return store(d, m.p, m.dl, m.pc, d.freshConst());
    case kBulk: {
        m.dinst = m.cc;
        m.dl = d.pickLoc(Space::Shared, m.cc, true);
        m.mb = d.pickLoc(Space::Mbarrier, m.cc, false);
        if (m.dl < 0 || m.mb < 0) return false;
        m.stale = d.cell(d.key(m.dl, m.cc)).values[0];
        const int size = r.pick({16, 32});
        if (r.chance(80)) arrive(d, m.pc == m.cc ? m.p : m.c, m.mb, m.cc, size);
        return bulkToShared(d, m.p, m.dl, m.cc, m.mb, false, size);
    }
    }
    return false;
}

void producerFence(Draft& d, const Plan& m) {
    Rng& r = d.rng();
    const GenOptions& o = d.opt();
    std::vector<int> w{o.generic ? 3 : 0, m.data == kSmemToAsync ? 4 : 0, o.proxies ? 1 : 0,
                       m.data == kTmem ? 4 : 0, m.data == kTmem && m.tmemOp == 3 ? 2 : 0};
    if (w[0] + w[1] + w[2] + w[3] + w[4] == 0) return;
    switch (r.weighted(w)) {
    case 0:
        return memoryFence(d, m.p);
    case 1:
        return asyncFence(d, m.p, Space::Shared);
    case 2:
        return proxyFence(d, m.p);
    case 3:
        return tcFence(d, m.p, true);
    default:
        d.emit(m.p, text(ptx::Tcgen05Wait{false}));
    }
}

void consumerFence(Draft& d, const Plan& m) {
    Rng& r = d.rng();
    const GenOptions& o = d.opt();
    const bool tc = m.data == kTmem || m.data == kSmemToAsync;
    std::vector<int> w{o.generic ? 3 : 0, o.proxies ? 2 : 0, tc ? 6 : 0};
    if (w[0] + w[1] + w[2] == 0) return;
    switch (r.weighted(w)) {
    case 0:
        return memoryFence(d, m.c);
    case 1:
        return proxyFence(d, m.c);
    default:
        return tcFence(d, m.c, false);
    }
}

/** Producer signals, consumer waits for (or merely observes) the signal. */
bool signal(Draft& d, const Plan& m) {
    Rng& r = d.rng();
    const GenOptions& o = d.opt();
    const bool near = m.pc == m.cc || d.peer(m.pc) == m.cc;
    if (m.data == kBulk) { // the copy's complete_tx is the signal
        const std::string res = mbWait(d, m.c, m.mb, r.chance(70));
        if (!res.empty()) d.hintReg(m.c, res, 1);
        return true;
    }
    const bool asyncOp = m.data == kTmem && m.tmemOp != 3;
    std::vector<int> w{o.generic ? 4 : 0, o.mbarrier && near ? 4 : 0,
                       o.generic && m.pc == m.cc && m.p != m.c ? 2 : 0,
                       o.mbarrier && near && asyncOp ? 5 : 0, 1};
    const int choice = r.weighted(w);
    switch (choice) {
    case kFlag: {
        int inst = -1, fl = -1;
        if (near && r.chance(25)) {
            inst = m.cc;
            fl = d.pickLoc(Space::Shared, m.cc, true);
        } else {
            fl = d.pickLoc(Space::Global, -1, true);
        }
        if (fl < 0 || d.key(fl, inst) == d.key(m.dl, m.dinst)) return false;
        std::int64_t v = d.freshConst();
        const bool stored = r.chance(75);
        if (stored)
            store(d, m.p, fl, inst, v);
        else
            reduction(d, m.p, fl, inst);
        const std::string reg = load(d, m.c, fl, inst);
        if (stored) d.hintReg(m.c, reg, v);
        return true;
    }
    case kMbarrier:
    case kCommit: {
        const int mb = d.pickMbarrier(m.p, m.cc);
        if (mb < 0) return false;
        if (choice == kCommit)
            commit(d, m.p, mb, m.cc);
        else
            arrive(d, m.p, mb, m.cc, 0);
        const std::string res = mbWait(d, m.c, mb, r.chance(65));
        if (!res.empty()) d.hintReg(m.c, res, 1);
        return true;
    }
    case kBarrier:
        return barrier(d, m.cc, {m.p, m.c});
    default:
        return true;
    }
}

bool readData(Draft& d, const Plan& m) {
    Rng& r = d.rng();
    const GenOptions& o = d.opt();
    switch (m.data) {
    case kGeneric:
    case kAlias:
    case kBulk: {
        std::string reg;
        if (m.data == kAlias && (!o.generic || r.chance(60)))
            reg = aliasRead(d, m.c, m.dl);
        else if (o.generic)
            reg = load(d, m.c, m.dl, m.dinst);
        if (!reg.empty()) d.hintReg(m.c, reg, m.stale);
        return m.data == kBulk || !reg.empty();
    }
    case kTmem: {
        const std::string reg = tcLoad(d, m.c, m.dl, r.chance(85));
        d.hintReg(m.c, reg, m.stale);
        return true;
    }
    case kSmemToAsync: {
        const int dst = pickTmem(d, m.c, true);
        if (dst < 0) return false;
        Written w;
        if (!(r.chance(55) ? mma(d, m.c, dst, m.dl, &w) : tcCopy(d, m.c, dst, m.dl, &w)))
            return false;
        d.hintCell(w.cell, w.stale);
        return true;
    }
    }
    return false;
}

} // namespace

bool messagePassing(Draft& d) {
    Rng& r = d.rng();
    const GenOptions& o = d.opt();
    Plan m;
    m.p = d.pickThread();
    m.c = d.pickThread();
    if (m.c == m.p && d.threads() > 1 && r.chance(85))
        m.c = (m.p + 1 + static_cast<int>(r.below(static_cast<std::uint64_t>(d.threads() - 1)))) %
              d.threads();
    m.pc = d.ctaOf(m.p);
    m.cc = d.ctaOf(m.c);
    const bool near = m.pc == m.cc || d.peer(m.pc) == m.cc;
    std::vector<int> w{o.generic ? 4 : 0, o.proxies ? 2 : 0, o.tcgen05 && near ? 4 : 0,
                       o.tcgen05 && o.generic && m.pc == m.cc ? 2 : 0,
                       o.bulk && o.mbarrier && near ? 3 : 0};
    if (w[0] + w[1] + w[2] + w[3] + w[4] == 0) return false;
    m.data = static_cast<Data>(r.weighted(w));
    if (!writeData(d, m)) return false;
    if (r.chance(45)) producerFence(d, m);
    if (!signal(d, m)) return false;
    const bool tc = m.data == kTmem || m.data == kSmemToAsync;
    if (r.chance(tc ? 70 : 40)) consumerFence(d, m);
    return readData(d, m);
}

} // namespace ptxmc::gen
