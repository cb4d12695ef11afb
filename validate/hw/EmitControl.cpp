// Control flow on hardware: PTX labels, branches, guards, setp and exit as C++ over the
// thread's register variables; a loop stops at the run's deadline so it cannot hang the run.
#include "hw/Emit.hpp"

namespace ptxmc::validate {

namespace {

/** A C++ comparison of two 32-bit values, signed or not (PTX ISA {Setp}: lo/ls/hi/hs are
 *  unsigned whatever the type). */
std::string comparison(ptx::CmpOp cmp, bool isSigned, const std::string& a, const std::string& b) {
    const bool unsignedOp = cmp == ptx::CmpOp::Lo || cmp == ptx::CmpOp::Ls ||
                            cmp == ptx::CmpOp::Hi || cmp == ptx::CmpOp::Hs;
    const std::string cast = isSigned && !unsignedOp ? "static_cast<int>" : "static_cast<unsigned>";
    const std::string x = cast + "(" + a + ")", y = cast + "(" + b + ")";
    switch (cmp) {
    case ptx::CmpOp::Eq:
        return x + " == " + y;
    case ptx::CmpOp::Ne:
        return x + " != " + y;
    case ptx::CmpOp::Lt:
    case ptx::CmpOp::Lo:
        return x + " < " + y;
    case ptx::CmpOp::Le:
    case ptx::CmpOp::Ls:
        return x + " <= " + y;
    case ptx::CmpOp::Gt:
    case ptx::CmpOp::Hi:
        return x + " > " + y;
    case ptx::CmpOp::Ge:
    case ptx::CmpOp::Hs:
        return x + " >= " + y;
    }
    return "false";
}

/** Labels are the kernel function's, shared by every thread's case: each thread has its own. */
/** A warp-wide loop's rounds before its instance counts as stuck: far beyond any test's
 *  (the model unrolls them all), short of a launch's time limit. */
constexpr int kMaxWarpWideRounds = 1 << 16;

std::string labelName(int thread, const std::string& label) {
    return "L" + std::to_string(thread) + "_" + ident(label);
}

} // namespace

std::string ThreadEmitter::exitLabel() const {
    return "litmus_exit" + std::to_string(thread_.id);
}

void ThreadEmitter::needsOwnThread(const std::string& what) const {
    // Warp-wide modes run a litmus thread on a whole warp (or warpgroup) whose lanes hold
    // different register values: a branch on them would split the warp around collectives.
    if (plan_.single())
        refuse(what + " in a tcgen05 or wgmma test (one litmus thread on a whole warp) has no "
                      "CUDA mapping yet");
}

void ThreadEmitter::needsUniform(const std::string& what, const std::vector<std::string>& regs) {
    if (!plan_.single()) return;
    for (const std::string& r : regs)
        if (!uniform_.count(r))
            needsOwnThread(what + " on register " + r + ", which is not set from constants alone,");
    allLanes(); // every lane takes it, as the warp (warpgroup) does
}

std::string ThreadEmitter::guardCondition(const litmus::Predicate& guard) {
    needsUniform("a guard", {guard.reg});
    litmus::Operand reg;
    reg.kind = litmus::Operand::Kind::Name;
    reg.name = guard.reg;
    reg.loc = guard.loc;
    return std::string(guard.negated ? "!" : "") + "(" + intValue(reg) + " != 0u)";
}

void ThreadEmitter::label(const std::string& name) {
    needsUniform("a label", {});
    labelsMet_.insert(name);
    line(labelName(thread_.id, name) + ":;");
}

void ThreadEmitter::branch(const std::string& target, const std::string& condition) {
    needsUniform("a branch", {});
    // A jump back is a loop: past the deadline it is not taken (the instance is stuck, as with
    // a blocking wait that times out) and the thread runs on to its barriers and epilogue, so
    // no other thread waits for it forever. A warp-wide thread's lanes read the clock apart, so
    // there a round count (alike in every lane) stops the loop instead.
    const bool back = labelsMet_.count(target) > 0;
    if (back && plan_.single()) {
        // The round count is per entry into the loop (reset when it falls through, so an
        // inner loop starts afresh each outer round). Its condition reads uniform registers
        // only, so a stuck instance runs its remaining rounds, each wait making one attempt
        // past its deadline.
        // No vote on `stuck` ends it early: ptxas serializes a warpgroup's wgmmas (C7520) when
        // a loop's exit depends on one, and a dropped wait_group would then never show.
        const std::string rounds = "rounds" + std::to_string(loops_++);
        decls_.push_back("unsigned " + rounds + " = 0;");
        line("if (" + condition + ") {");
        line("    if (++" + rounds + " > " + std::to_string(kMaxWarpWideRounds) +
             "u) stuck = true; else");
        line("        goto " + labelName(thread_.id, target) + ";");
        line("}");
        line(rounds + " = 0;");
        return;
    }
    line("if (" + condition + ") {");
    if (back) line("    if (litmus::globalTimer() > deadline) stuck = true; else");
    line("    goto " + labelName(thread_.id, target) + ";");
    line("}");
}

void ThreadEmitter::setp(const Insn& in, const ptx::Setp& s) {
    // in a warp-wide thread only every lane's own comparison of uniform registers (else lane 0
    // alone would hold the predicate a collective or a branch reads)
    if (plan_.single() && !definesUniform(in))
        needsOwnThread("setp on a register not set from constants alone");
    define(in.operand(0),
           "(" +
               comparison(s.cmp, s.type.kind == 's', intValue(in.operand(1)),
                          intValue(in.operand(2))) +
               ") ? 1u : 0u",
           RegKind::Int);
}

void ThreadEmitter::compareBranch(const Insn& in, const ptx::CompareBranch& b) {
    // Dat3M's beq/bne/blt/...: signed
    std::vector<std::string> regs;
    for (std::size_t k = 0; k < 2; ++k)
        if (in.operand(k).kind == litmus::Operand::Kind::Name) regs.push_back(in.operand(k).name);
    needsUniform("a branch", regs);
    branch(in.operand(2).name,
           comparison(b.cmp, true, intValue(in.operand(0)), intValue(in.operand(1))));
}

void ThreadEmitter::elect(const Insn& in) {
    // As the model has it: a litmus thread is a warp's elected lane, lane 0, predicate true.
    needsOwnThread("elect.sync");
    define(in.operand(0), "0u", RegKind::Int);
    define(in.operand(1), "1u", RegKind::Int);
}

void ThreadEmitter::exitThread() {
    needsOwnThread("exit");
    // The harness's CUDA thread does not exit: it goes on to record its registers and meets
    // the harness's own synchronisation, so a bar.sync the others wait at would never count
    // it out (the H100 run hung on litmus/control/exit-before-bar.sync.litmus).
    for (const auto& t : test_.threads)
        for (const auto& i : t.code)
            if (!i.isLabel() && i.decoded && i.decoded->is<ptx::Barrier>())
                refuse("exit in a test with a barrier: the harness's thread goes on to record its "
                       "registers, so the barrier would wait for it forever");
    exitUsed_ = true;
    line("goto " + exitLabel() + ";");
}

} // namespace ptxmc::validate
