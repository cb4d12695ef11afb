// Instruction text and sequential effect of each step; the names match the init block.
#include "matrix/Steps.hpp"

#include <algorithm>

namespace ptxmc::matrix {

namespace {

constexpr std::int64_t kA = 2, kB = 3, kSource[2] = {4, 5};

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

std::string Gen::operand(int row) const {
    return row == 0 ? "[t]" : "[t+" + std::to_string(row) + "]";
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
            "tcgen05.ld.sync.aligned.32x32b.x1.b32 {" + r + "}, " + operand(row),
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
            "tcgen05.st.sync.aligned.32x32b.x1.b32 " + operand(row) + ", {" + r + "}",
            [to, value](const State&) {
                return State{{to, value}};
            },
            {},
            {to}};
}

Step Gen::cp(std::size_t tid, const std::string& shape, int row, int source) {
    source_[source] = true;
    std::string to = cell(row);
    std::int64_t value = kSource[source];
    observe(to);
    return {tid,
            "tcgen05.cp.cta_group::1." + shape + " " + operand(row) + ", [s" +
                std::to_string(source) + "]",
            [to, value](const State&) {
                return State{{to, value}};
            },
            {},
            {to}};
}

Step Gen::shift(std::size_t tid) {
    // Row r moves to row r+1; the last row's old value is lost, row 0 keeps its value.
    Step s{tid, "tcgen05.shift.cta_group::1.down [t]", nullptr, {}, {}};
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
    std::string aOperand = "[a]", aRef;
    if (m.aRow < 0) {
        a_ = true;
    } else {
        aOperand = operand(m.aRow);
        aRef = cell(m.aRow);
    }
    Step s{tid,
           "tcgen05.mma.cta_group::1.kind::" + m.kind + " [" + d + "], " + aOperand + ", [b], " +
               m.idesc + ", " + (m.accumulate ? "1" : "0"),
           nullptr,
           {},
           {dRef}};
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
    return "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mb]";
}

std::string Gen::tryWait() {
    mb_ = true;
    return "mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 _, [mb], 0";
}

std::string Gen::arrive() {
    mb_ = true;
    return "mbarrier.arrive.relaxed.cluster.shared::cta.b64 _, [mb]";
}

std::string Gen::flagStore() {
    flag_ = true;
    return "st.relaxed.cta.global.u32 [f], 1";
}

std::string Gen::flagLoad(std::size_t tid, std::string& ref) {
    flag_ = true;
    std::string r = reg(tid);
    ref = "P" + std::to_string(tid) + ":" + r;
    return "ld.relaxed.cta.global.u32 " + r + ", [f]";
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
