// The final condition: a quantifier over a small proposition on observed registers and cells.
#include "gen/Families.hpp"
#include "ir/Condition.hpp"

#include <algorithm>

namespace ptxmc::gen {

namespace {

std::string combine(Rng& r, const std::vector<std::string>& a, bool conjunctive) {
    if (a.size() == 1) return r.chance(85) ? a[0] : "~(" + a[0] + ")";
    if (a.size() == 2) {
        if (conjunctive) return a[0] + " /\\ " + a[1];
        switch (r.weighted({55, 25, 8, 12})) {
        case 0:
            return a[0] + " /\\ " + a[1];
        case 1:
            return a[0] + " \\/ " + a[1];
        case 2:
            return "(" + a[0] + ") => (" + a[1] + ")";
        default:
            return "~(" + a[0] + " /\\ " + a[1] + ")";
        }
    }
    if (conjunctive) return a[0] + " /\\ " + a[1] + " /\\ " + a[2];
    switch (r.weighted({50, 25, 15, 10})) {
    case 0:
        return a[0] + " /\\ " + a[1] + " /\\ " + a[2];
    case 1:
        return a[0] + " /\\ (" + a[1] + " \\/ " + a[2] + ")";
    case 2:
        return "(" + a[0] + " \\/ " + a[1] + ") /\\ ~(" + a[2] + ")";
    default:
        return a[0] + " \\/ " + a[1] + " \\/ " + a[2];
    }
}

} // namespace

std::string condition(Draft& d) {
    Rng& r = d.rng();
    // tcgen05.alloc stores the address of its block: the only block of its CTA starts at 0.
    std::vector<std::int64_t> tokens;
    if (!d.allocCtas.empty()) tokens.push_back(0);
    std::vector<Observable> pool = d.regObservables;
    std::vector<Observable> unwritten;
    for (const CellKey& k : d.dataCells()) {
        if (d.loc(k.loc).allocTarget) addValues(d.cell(k).values, tokens);
        // Written cells are the interesting ones; a never-written one holds its initial value.
        (d.cell(k).writes > 0 ? pool : unwritten).push_back(Observable{"", k, {}});
    }
    if (pool.empty() || r.chance(10)) pool.insert(pool.end(), unwritten.begin(), unwritten.end());
    if (pool.empty()) { // nothing touches memory: observe a fresh, never-written location
        const int x = d.newLoc(Space::Global, -1);
        pool.push_back(Observable{"", d.key(x, -1), {}});
    }
    auto valuesOf = [&](const Observable& o) {
        std::vector<std::int64_t> v = o.values;
        if (o.cell) addValues(v, d.cell(*o.cell).values);
        return v.empty() ? std::vector<std::int64_t>{0} : v;
    };
    auto refOf = [&](const Observable& o) { return o.ref.empty() ? d.cellRef(*o.cell) : o.ref; };
    std::vector<std::string> atoms;
    std::vector<std::string> refs;
    const bool fromHints = !d.hints.empty() && r.chance(65);
    if (fromHints) {
        // A window of a pattern's hints: "flag seen and data stale" is the classic question.
        const std::size_t n = d.hints.size();
        const std::size_t len = std::min<std::size_t>(n, 1 + r.below(3));
        const std::size_t start = r.below(n - len + 1);
        for (std::size_t i = start; i < start + len; ++i) {
            const Hint& h = d.hints[i];
            const std::string ref = refOf(h.obs);
            if (std::find(refs.begin(), refs.end(), ref) != refs.end()) continue;
            refs.push_back(ref);
            atoms.push_back(ref + (r.chance(90) ? " == " : " != ") + std::to_string(h.value));
        }
    } else {
        const int k = 1 + r.weighted({40, 40, 20});
        for (int tries = 0; tries < 3 * k && static_cast<int>(atoms.size()) < k; ++tries) {
            const Observable& o = r.pick(pool);
            const std::string ref = refOf(o);
            if (std::find(refs.begin(), refs.end(), ref) != refs.end()) continue;
            refs.push_back(ref);
            // Rarely a value that may never occur: forall / ~exists then hold trivially.
            const std::int64_t v = r.chance(95) ? r.pick(valuesOf(o)) : r.range(0, 9);
            atoms.push_back(ref + (r.chance(80) ? " == " : " != ") + std::to_string(v));
        }
    }
    const std::string prop = combine(r, atoms, fromHints && r.chance(85));
    using Q = ir::Quantifier;
    const Q q = r.pick({Q::Exists, Q::Exists, Q::Exists, Q::Exists, Q::Exists, Q::NotExists,
                        Q::NotExists, Q::Forall, Q::Forall});
    return std::string(ir::quantifierText(q)) + " (" + prop + ")";
}

} // namespace ptxmc::gen
