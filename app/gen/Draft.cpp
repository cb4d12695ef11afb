// Bookkeeping of a test under construction: shape, locations, registers, values and limits.
#include "gen/Draft.hpp"

#include "ptx/Print.hpp"

#include <algorithm>

namespace ptxmc::gen {

namespace {

// Few names per space: every extra location multiplies the executions an engine enumerates.
const std::vector<std::string> kGlobalNames{"x", "y", "z"};
const std::vector<std::string> kSharedNames{"a", "b", "s"};
const std::vector<std::string> kTmemNames{"d", "u", "t"};
const std::vector<std::string> kMbarNames{"mb", "mb2"};

const std::vector<std::string>& namesOf(Space s) {
    switch (s) {
    case Space::None:
    case Space::Global:
        return kGlobalNames;
    case Space::Shared:
        return kSharedNames;
    case Space::Tmem:
        return kTmemNames;
    case Space::Mbarrier:
        break;
    }
    return kMbarNames;
}

} // namespace

void addValues(std::vector<std::int64_t>& to, const std::vector<std::int64_t>& from) {
    for (std::int64_t v : from)
        if (to.size() < 8 && std::find(to.begin(), to.end(), v) == to.end()) to.push_back(v);
}

Draft::Draft(const GenOptions& options, Rng& rng) : opt_(options), rng_(&rng) {
    const int maxThreads = std::clamp(std::min(opt_.maxThreads, opt_.maxInstructions), 1, 4);
    // Two threads are the common litmus shape; one and four are rarer.
    const std::vector<int> weights{15, 45, 25, 15};
    int n = 1 + rng.weighted(std::vector<int>(weights.begin(), weights.begin() + maxThreads));
    threads_.resize(static_cast<std::size_t>(n));
    if (std::clamp(opt_.maxCtas, 1, 2) == 2 && n >= 2 && rng.chance(45)) {
        nCtas_ = 2;
        cluster_ = rng.chance(60);
        gpu1_ = !cluster_ && rng.chance(15) ? 1 : 0; // .sys scope matters across GPUs
        for (auto& t : threads_)
            t.cta = static_cast<int>(rng.below(2));
        if (threadsIn(0).empty() || threadsIn(1).empty()) {
            int flip = static_cast<int>(rng.below(static_cast<std::uint64_t>(n)));
            threads_[static_cast<std::size_t>(flip)].cta ^= 1;
        }
    }
}

std::vector<int> Draft::threadsIn(int cta) const {
    std::vector<int> out;
    for (int t = 0; t < threads(); ++t)
        if (ctaOf(t) == cta) out.push_back(t);
    return out;
}

int Draft::pickThread() {
    std::vector<int> empty;
    for (int t = 0; t < threads(); ++t)
        if (threads_[static_cast<std::size_t>(t)].code.empty()) empty.push_back(t);
    if (!empty.empty() && rng_->chance(60)) return rng_->pick(empty);
    return static_cast<int>(rng_->below(static_cast<std::uint64_t>(threads())));
}

int Draft::pickThreadIn(int cta) {
    return rng_->pick(threadsIn(cta));
}

int Draft::total() const {
    int n = 0;
    for (const auto& t : threads_)
        n += static_cast<int>(t.code.size());
    return n;
}

int Draft::emptyThreads() const {
    return static_cast<int>(std::count_if(threads_.begin(), threads_.end(),
                                          [](const ThreadDraft& t) { return t.code.empty(); }));
}

bool Draft::fits() const {
    if (total() + emptyThreads() > std::max(opt_.maxInstructions, threads())) return false;
    for (const auto& [k, c] : cells_)
        if (c.writes > kMaxWrites) return false;
    for (const auto& [k, n] : mbOps_)
        if (n > kMaxMbOps) return false;
    return candidates() <= kMaxCandidates;
}

std::string Draft::freshReg(const char* prefix) {
    return prefix + std::to_string(nextReg_++);
}

void Draft::define(int t, const std::string& reg, std::vector<std::int64_t> values) {
    th(t).regs[reg] = std::move(values);
    th(t).tokens.erase(reg);
}

std::string Draft::initReg(int t, std::int64_t v, const char* prefix) {
    std::string r = freshReg(prefix);
    regInits_.emplace_back(t, r, v);
    define(t, r, {v});
    return r;
}

std::string Draft::storedValue(int t, std::optional<std::int64_t> fixed,
                               std::vector<std::int64_t>& values) {
    if (!fixed) return valueOperand(t, values, true);
    values = {*fixed};
    return std::to_string(*fixed);
}

std::string Draft::valueOperand(int t, std::vector<std::int64_t>& values, bool immediateOk) {
    std::vector<std::string> defined;
    for (const auto& [r, v] : th(t).regs)
        if (!th(t).tokens.count(r)) defined.push_back(r);
    const int roll = static_cast<int>(rng_->below(100));
    if (!defined.empty() && (roll < 25 || (!immediateOk && roll < 60))) {
        // A register written by an earlier instruction: a data dependency.
        const std::string& r = rng_->pick(defined);
        values = th(t).regs[r];
        return r;
    }
    const std::int64_t v = freshConst();
    values = {v};
    if (immediateOk && roll < 85) return std::to_string(v);
    return initReg(t, v);
}

Observable Draft::regObs(int t, const std::string& reg, std::optional<CellKey> from) const {
    Observable o;
    o.ref = "P" + std::to_string(t) + ":" + reg;
    o.cell = from;
    auto it = threads_[static_cast<std::size_t>(t)].regs.find(reg);
    if (it != threads_[static_cast<std::size_t>(t)].regs.end()) o.values = it->second;
    return o;
}

void Draft::observe(int t, const std::string& reg, std::optional<CellKey> from) {
    regObservables.push_back(regObs(t, reg, from));
}

void Draft::hintReg(int t, const std::string& reg, std::int64_t v) {
    const std::string ref = "P" + std::to_string(t) + ":" + reg;
    for (auto it = regObservables.rbegin(); it != regObservables.rend(); ++it)
        if (it->ref == ref) {
            hints.push_back({*it, v});
            return;
        }
}

int Draft::allocSlot(int cta) {
    for (int i = 0; i < locCount(); ++i)
        if (loc(i).allocTarget) {
            ensure(i, cta);
            return i;
        }
    Loc l;
    l.name = "sp";
    l.space = Space::Shared;
    l.ctas = {cta};
    l.init = {-1}; // no address yet: a reader that misses the alloc sees -1, which no address is
    l.allocTarget = true;
    locs_.push_back(l);
    return locCount() - 1;
}

int Draft::newLoc(Space space, int cta, int rows) {
    const auto& names = namesOf(space);
    std::string name;
    for (const auto& n : names) {
        bool used =
            std::any_of(locs_.begin(), locs_.end(), [&](const Loc& l) { return l.name == n; });
        if (!used) {
            name = n;
            break;
        }
    }
    if (name.empty()) return -1;
    Loc l;
    l.name = name;
    l.space = space;
    l.rows = rows;
    if (space != Space::Global) l.ctas = {cta};
    for (int r = 0; r < rows; ++r) {
        // Mostly 0 so a stale read is recognisable; non-zero shared values make mma products
        // distinguishable from the initial accumulator.
        int zero = space == Space::Global ? 75 : space == Space::Shared ? 35 : 45;
        l.init.push_back(rng_->chance(zero) ? 0 : rng_->range(1, 9));
    }
    if (space == Space::Mbarrier) {
        l.init.clear();
        l.count = rng_->chance(80) ? 1 : 2;
    }
    locs_.push_back(l);
    return locCount() - 1;
}

int Draft::pickLoc(Space space, int cta, bool forWrite, int minRows, bool mayCreate) {
    std::vector<int> candidates;
    for (int i = 0; i < locCount(); ++i) {
        const Loc& l = loc(i);
        if (l.space != space || l.aliasOf >= 0 || l.allocTarget || l.rows < minRows) continue;
        if (space == Space::Mbarrier && l.programInit &&
            std::find(l.ctas.begin(), l.ctas.end(), cta) == l.ctas.end())
            continue; // an mbarrier the program inits lives in one CTA only
        if (forWrite) {
            auto it = cells_.find(key(i, cta));
            if (it != cells_.end() && it->second.writes >= kMaxWrites) continue;
        }
        candidates.push_back(i);
    }
    int chosen = -1;
    // Reuse is the rule (shared locations make threads interact, few keep tests cheap).
    const int create = candidates.empty() ? 100 : candidates.size() == 1 ? 25 : 12;
    if (!mayCreate || !rng_->chance(create)) {
        chosen = candidates.empty() ? -1 : rng_->pick(candidates);
    } else {
        int rows = minRows;
        if (space == Space::Tmem && rows == 1 && rng_->chance(20)) rows = 2;
        chosen = newLoc(space, cta, rows);
        if (chosen < 0 && !candidates.empty()) chosen = rng_->pick(candidates);
    }
    if (chosen >= 0) ensure(chosen, cta);
    return chosen;
}

int Draft::aliasOf(int root, const std::string& proxy) {
    for (int i = 0; i < locCount(); ++i)
        if (loc(i).aliasOf == root && loc(i).proxy == proxy) return i;
    int aliases = 0;
    for (const auto& l : locs_)
        aliases += l.aliasOf >= 0 ? 1 : 0;
    if (aliases >= 2) return -1;
    Loc l;
    l.name = loc(root).name + "_" + proxy.substr(0, 3);
    l.aliasOf = root;
    l.proxy = proxy;
    locs_.push_back(l);
    return locCount() - 1;
}

int Draft::pickMbarrier(int t, int cta) {
    int before = locCount();
    int m = pickLoc(Space::Mbarrier, cta, false);
    if (m < 0 || m < before || ctaOf(t) != cta || !opt_.mbarrier || !rng_->chance(25)) return m;
    // Sometimes the program initialises the new mbarrier itself (PTX ISA
    // #parallel-synchronization-and-communication-instructions-mbarrier-init).
    loc(m).programInit = true;
    const ptx::MbarrierInit init{{ptx::StateSpace::SharedCta, true}};
    emit(t, ptx::printOpcode(init) + " " + addr(m, cta, cta) + ", " + std::to_string(loc(m).count));
    mbOp(key(m, cta));
    return m;
}

void Draft::ensure(int l, int cta) {
    Loc& x = loc(l);
    if (x.space == Space::Global || cta < 0) return;
    if (std::find(x.ctas.begin(), x.ctas.end(), cta) == x.ctas.end()) {
        x.ctas.push_back(cta);
        std::sort(x.ctas.begin(), x.ctas.end());
    }
}

CellKey Draft::key(int l, int cta, int row) const {
    if (loc(l).aliasOf >= 0) l = loc(l).aliasOf;
    return CellKey{l, loc(l).space == Space::Global ? -1 : cta, row};
}

Cell& Draft::cell(const CellKey& k) {
    auto it = cells_.find(k);
    if (it == cells_.end()) {
        Cell c;
        c.values = {loc(k.loc).init.empty() ? 0 : loc(k.loc).init[static_cast<std::size_t>(k.row)]};
        it = cells_.emplace(k, c).first;
    }
    return it->second;
}

std::vector<std::int64_t> Draft::read(const CellKey& k) {
    Cell& c = cell(k);
    ++c.reads;
    return c.values;
}

std::uint64_t Draft::candidates() const {
    // Integer arithmetic, so the bound decides the same on every platform.
    std::uint64_t n = 1;
    auto times = [&](std::uint64_t k) { n = n > kMaxCandidates / k ? kMaxCandidates + 1 : n * k; };
    times(untracked_);
    for (const auto& [k, c] : cells_) {
        for (int r = 0; r < c.reads; ++r)
            times(static_cast<std::uint64_t>(c.writes) + 1);
        for (int w = 2; w <= c.writes; ++w)
            times(static_cast<std::uint64_t>(w));
    }
    for (const auto& [k, ops] : mbOps_)
        for (int o = 2; o <= ops; ++o)
            times(static_cast<std::uint64_t>(o));
    return n;
}

void Draft::write(const CellKey& k, const std::vector<std::int64_t>& values) {
    Cell& c = cell(k);
    ++c.writes;
    addValues(c.values, values);
}

bool Draft::mayBlock(const CellKey& k) const {
    auto it = mbArrivals_.find(k);
    return it != mbArrivals_.end() && it->second >= loc(k.loc).count;
}

std::string Draft::addr(int l, int fromCta, int instCta, int row, bool brackets) {
    ensure(loc(l).aliasOf >= 0 ? loc(l).aliasOf : l, instCta);
    std::string s = loc(l).name;
    if (instCta >= 0 && instCta != fromCta) s += "@" + std::to_string(instCta);
    if (row > 0) s += "+" + std::to_string(row);
    return brackets ? "[" + s + "]" : s;
}

std::string Draft::cellRef(const CellKey& k) const {
    const Loc& l = loc(k.loc);
    std::string s = l.name;
    if (l.ctas.size() > 1) s += "@" + std::to_string(k.cta);
    if (l.rows > 1) s += "[" + std::to_string(k.row) + "]";
    return s;
}

std::vector<CellKey> Draft::dataCells() const {
    std::vector<CellKey> out;
    for (int i = 0; i < locCount(); ++i) {
        const Loc& l = loc(i);
        if (l.aliasOf >= 0 || l.space == Space::Mbarrier) continue;
        std::vector<int> inst = l.ctas.empty() ? std::vector<int>{-1} : l.ctas;
        for (int c : inst)
            for (int r = 0; r < l.rows; ++r)
                out.push_back(CellKey{i, c, r});
    }
    return out;
}

int Draft::ctaGroup() {
    if (ctaGroup_ == 0) ctaGroup_ = peer(0) >= 0 && rng_->chance(45) ? 2 : 1;
    return ctaGroup_;
}

std::pair<int, std::string> Draft::barrierFor(int cta, const std::vector<int>& participants,
                                              bool noCount) {
    // noCount: a barrier with no thread count among the threads that have not exited (a key of
    // its own: the same threads with a count would be another instance's form)
    std::vector<int> keyThreads = participants;
    if (noCount) keyThreads.push_back(-1);
    auto k = std::make_pair(cta, keyThreads);
    auto it = barriers_.find(k);
    if (it != barriers_.end()) return it->second;
    // A fresh id per participant set, so that every instance of an id has the same threads;
    // mostly the lowest free one, sometimes another (ids 0..15 all exist).
    std::vector<int> free;
    for (int id = 0; id < 16; ++id) {
        bool used = false;
        for (const auto& [other, v] : barriers_)
            used = used || (other.first == cta && v.first == id);
        if (!used) free.push_back(id);
    }
    const int id =
        rng_->chance(70) ? free[0] : free[rng_->below(std::min<std::size_t>(free.size(), 6))];
    bool all = participants.size() == threadsIn(cta).size();
    std::string count = noCount || (all && rng_->chance(60))
                            ? ""
                            : ", " + std::to_string(32 * static_cast<int>(participants.size()));
    barriers_[k] = {id, count};
    return {id, count};
}

} // namespace ptxmc::gen
