// Instruction text and sequential effect of each step; the names match the init block.
#include "matrix/Steps.hpp"

#include "ptx/Operands.hpp"
#include "ptx/Print.hpp"
#include "ptx/Tables.hpp"

#include <algorithm>

namespace ptxmc::matrix {

namespace {

constexpr std::int64_t kA = 2, kB = 3, kSource[2] = {4, 5};

/** The mbarrier operand every step uses: a .shared::cta .b64 mbarrier. */
const ptx::MbarrierOperand kMb{ptx::StateSpace::SharedCta, true};

} // namespace

void run(const Step& step, State& state) {
    if (!step.effect) return;
    for (const auto& [ref, value] : step.effect(state))
        state[ref] = value;
}

Gen::Gen(int rows) : rows_(rows) {
    for (int r = 0; r < rows_; ++r)
        initial_[cell(r)] = 10 * (r + 1);
}

std::string Gen::cell(int row) const {
    return rows_ == 1 ? "t" : "t[" + std::to_string(row) + "]";
}

std::string Gen::reg(std::size_t tid) {
    return "r" + std::to_string(nextReg_[tid]++);
}

void Gen::observe(const std::string& ref) {
    if (std::find(observed_.begin(), observed_.end(), ref) == observed_.end())
        observed_.push_back(ref);
}

int Gen::rowOf(const std::string& ref) const {
    auto open = ref.find('[');
    return open == std::string::npos ? 0 : std::stoi(ref.substr(open + 1));
}

Step Gen::ld(std::size_t tid, int row) {
    std::string r = reg(tid);
    std::string ref = "P" + std::to_string(tid) + ":" + r;
    std::string from = cell(row);
    initial_[ref] = 0;
    observe(ref);
    return {tid,
            ptx::print(ptx::make(ptx::Tcgen05Ld{kOneRow}, {ptx::vec({r}), ptx::mem("t", row)})),
            [ref, from](const State& s) {
                return State{{ref, s.at(from)}};
            },
            {from},
            {}};
}

Step Gen::st(std::size_t tid, int row, std::int64_t value) {
    std::string r = reg(tid);
    regInits_.push_back("P" + std::to_string(tid) + ":" + r + " = " + std::to_string(value));
    std::string to = cell(row);
    observe(to);
    return {tid,
            ptx::print(ptx::make(ptx::Tcgen05St{kOneRow}, {ptx::mem("t", row), ptx::vec({r})})),
            [to, value](const State&) {
                return State{{to, value}};
            },
            {},
            {to}};
}

Step Gen::cp(std::size_t tid, ptx::CpShape shape, int row, int source) {
    source_[source] = true;
    std::string to = cell(row);
    std::int64_t value = kSource[source];
    observe(to);
    return {tid,
            ptx::print(ptx::make(ptx::Tcgen05Cp{1, shape, ptx::CpWarps::None, {}},
                                 {ptx::mem("t", row), ptx::mem("s" + std::to_string(source))})),
            [to, value](const State&) {
                return State{{to, value}};
            },
            {},
            {to}};
}

Step Gen::shift(std::size_t tid) {
    // Row r moves to row r+1; the last row's old value is lost, row 0 keeps its value.
    Step s{tid, ptx::print(ptx::make(ptx::Tcgen05Shift{1}, {ptx::mem("t")})), nullptr, {}, {}};
    std::vector<std::string> cells;
    for (int r = 0; r < rows_; ++r)
        cells.push_back(cell(r));
    for (int r = 0; r + 1 < rows_; ++r) {
        s.reads.push_back(cells[r]);
        s.writes.push_back(cells[r + 1]);
        observe(cells[r + 1]);
    }
    s.effect = [cells](const State& st) {
        State out;
        for (std::size_t r = 1; r < cells.size(); ++r)
            out[cells[r]] = st.at(cells[r - 1]);
        return out;
    };
    return s;
}

Step Gen::mma(std::size_t tid, const MmaSpec& m) {
    b_ = true;
    std::string d = "t";
    std::string dRef = cell(0);
    if (m.d == MmaSpec::D::U) {
        u_ = true;
        d = "u";
        dRef = "u";
        initial_["u"] = 0;
    }
    litmus::Operand aOperand = ptx::mem("a");
    std::string aRef;
    if (m.aRow < 0) {
        a_ = true;
    } else {
        aOperand = ptx::mem("t", m.aRow);
        aRef = cell(m.aRow);
    }
    ptx::Tcgen05Mma mma;
    mma.kind = m.kind;
    ptx::Insn insn = ptx::make(mma, {ptx::mem(d), aOperand, ptx::mem("b"), ptx::reg(m.idesc),
                                     ptx::imm(m.accumulate ? 1 : 0)});
    Step s{tid, ptx::print(insn), nullptr, {}, {dRef}};
    if (!aRef.empty()) s.reads.push_back(aRef);
    if (m.accumulate) s.reads.push_back(dRef);
    observe(dRef);
    bool acc = m.accumulate;
    s.effect = [dRef, aRef, acc](const State& st) {
        std::int64_t av = aRef.empty() ? kA : st.at(aRef);
        return State{{dRef, av * kB + (acc ? st.at(dRef) : 0)}};
    };
    return s;
}

std::string Gen::commit() {
    mb_ = true;
    return ptx::print(
        ptx::make(ptx::Tcgen05Commit{1, ptx::StateSpace::SharedCluster, false}, {ptx::mem("mb")}));
}

std::string Gen::tryWait() {
    mb_ = true;
    ptx::MbarrierWait w{true, true, ptx::Sem::Relaxed, ptx::Scope::Cluster, kMb};
    return ptx::print(ptx::make(w, {ptx::sink(), ptx::mem("mb"), ptx::imm(0)}));
}

std::string Gen::arrive() {
    mb_ = true;
    ptx::MbarrierArrive a{false, ptx::Sem::Relaxed, ptx::Scope::Cluster, kMb};
    return ptx::print(ptx::make(a, {ptx::sink(), ptx::mem("mb")}));
}

std::string Gen::flagStore() {
    flag_ = true;
    ptx::St st{
        ptx::StName::St, ptx::Sem::Relaxed, ptx::Scope::Cta, ptx::StateSpace::Global, {{'u', 32}}};
    return ptx::print(ptx::make(st, {ptx::mem("f"), ptx::imm(1)}));
}

std::string Gen::flagLoad(std::size_t tid, std::string& ref) {
    flag_ = true;
    std::string r = reg(tid);
    ref = "P" + std::to_string(tid) + ":" + r;
    ptx::Ld ld{
        ptx::LdName::Ld, ptx::Sem::Relaxed, ptx::Scope::Cta, ptx::StateSpace::Global, {{'u', 32}}};
    return ptx::print(ptx::make(ld, {ptx::reg(r), ptx::mem("f")}));
}

std::vector<std::string> Gen::init() const {
    std::vector<std::string> out;
    if (rows_ == 1) {
        out.push_back("t @ tmem 0 = 10");
    } else {
        std::string values;
        for (int r = 0; r < rows_; ++r)
            values += (r ? ", " : "") + std::to_string(10 * (r + 1));
        out.push_back("t @ tmem 0, rows " + std::to_string(rows_) + " = {" + values + "}");
    }
    if (u_) out.push_back("u @ tmem 0 = 0");
    if (a_) out.push_back("a @ shared 0 = " + std::to_string(kA));
    if (b_) out.push_back("b @ shared 0 = " + std::to_string(kB));
    for (int i = 0; i < 2; ++i)
        if (source_[i])
            out.push_back("s" + std::to_string(i) + " @ shared 0 = " + std::to_string(kSource[i]));
    if (mb_) out.push_back("mb @ mbarrier 0, count 1");
    if (flag_) out.push_back("f = 0");
    out.insert(out.end(), regInits_.begin(), regInits_.end());
    return out;
}

} // namespace ptxmc::matrix
