// Syntax tree of a litmus test, exactly as written: no instruction semantics here (see lower/).
#pragma once

#include "ir/Condition.hpp"
#include "ir/Event.hpp"
#include "support/SourceLoc.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptxmc::litmus {

/**
 * One instruction operand, e.g. `r0`, `%r1`, `42`, `[x]`, `[t+2]`, `[mb@1]`, `[full+8*s]`,
 * `{r0, r1}`, `_`.
 */
struct Operand {
    enum class Kind {
        Name,    ///< bare identifier: a register (`r0`, `%p`) or a location (`x`, Dat3M style)
        Integer, ///< integer literal (decimal, 0x hex, 0b binary; may be negative)
        Memory,  ///< `[name]`, `[name+k]`, `[name@C]`, `[name@C+k]`, `[name+k*reg]`
        Vector,  ///< `{a, b, ...}`: elements are Name or Integer operands
        Sink,    ///< `_`
    };
    Kind kind = Kind::Name;
    std::string name;       ///< Name / Memory: identifier (without `@C` and `+k`)
    std::int64_t value = 0; ///< Integer: the value; Memory: the offset k (0 when absent)
    std::optional<int> cta; ///< Name / Memory: the `@C` CTA instance, when written
    /// Vector; Memory `[tmap, {c0, c1}]`: the coordinates; Name `a|b` (a predicate pair such as
    /// mbarrier.test_wait's `waitComplete|reportPredicate`, 9.3): b
    std::vector<Operand> elements;
    SourceLoc loc;
    /// Memory `[name+reg]`, `[name+k*reg]`, `[name+reg*k]`: the register whose value, times
    /// indexScale, is a byte offset into the array `name` (then `value` is 0)
    std::optional<std::string> indexReg;
    std::int64_t indexScale = 1;
    SourceLoc indexLoc; ///< where indexReg is written
    /// Memory `[tile, g, {c0, c1}]` (9.4 .override::global_address): g, the operand that
    /// overrides the tensor's global address ("gAddrToOverride"); empty otherwise (0 or 1)
    std::vector<Operand> overrideAddress;
    /// Name `!p`: a source predicate's complement, PTX's `{!}a` (vote, barrier.red); the
    /// decoder refuses it anywhere else
    bool negated = false;
};

/** An instruction's guard predicate: `@p` (runs when p != 0) or `@!p` (when p == 0). */
struct Predicate {
    std::string reg;
    bool negated = false;
    SourceLoc loc; ///< the `@`
};

/** One cell of the code table: an instruction, a label `LC00:`, or nothing (empty cell). */
struct Instruction {
    std::string opcode; ///< full dotted opcode, e.g. `tcgen05.mma.cta_group::1.kind::f16`
    std::vector<std::string>
        parts; ///< opcode split at '.', e.g. {"tcgen05","mma","cta_group::1","kind::f16"}
    std::vector<Operand> operands;
    std::optional<std::string> label; ///< set (and opcode empty) when the cell is `NAME:`
    std::optional<Predicate> guard;   ///< `@p` / `@!p` before the opcode
    SourceLoc loc;                    ///< position of the opcode's first character
};

/** Thread header `P0@cta 0,gpu 0` with an optional `cluster K` anywhere after the `@`. */
struct Thread {
    int id = 0; ///< the n of `Pn`; threads must be P0, P1, ... in column order
    int cta = 0;
    int gpu = 0;
    std::optional<int> cluster;    ///< absent: the CTA is its own cluster
    std::vector<Instruction> code; ///< non-empty cells of this column, top to bottom
    SourceLoc loc;
};

/** Memory declared in the init block. */
struct LocationDecl {
    std::string name;
    ir::Space space = ir::Space::Global; ///< never None
    std::vector<int> ctas; ///< Shared/Tmem/Mbarrier: `@ shared 0,1` lists CTAs; empty for Global
    int rows = 1;          ///< Tmem: `, rows N`; an array `a[N]`: N, element i being row i
    /// An array `a[N]` (global, shared or mbarrier): the bytes from one element to the next
    /// (`, stride S`; default 8 for mbarriers, 4 otherwise); 0 for a single location
    int stride = 0;
    bool isArray() const { return stride > 0; }
    std::optional<std::int64_t>
        count; ///< Mbarrier: `, count N` (initialised); absent = not initialised
    std::vector<std::int64_t>
        values; ///< `= v` (one value) or `= {v0, v1, ...}` (one per row); empty = 0
    std::optional<std::int64_t> bytes;    ///< `, bytes N`: the tile a tensor copy moves (global)
    std::optional<std::string> tensormap; ///< `, tensormap M`: where the tile's tensor map is
    SourceLoc tensormapLoc;
    /// `, elem u32` or `, elem s32`: the tile's element type, which the tensor map gives and a
    /// tensor reduction needs (PTX ISA 9.7.10.28.5.4: "The type of each tensor data element ...
    /// is specified in Tensor-map"); empty when not declared
    std::string elem;
    std::optional<std::string> aliasOf; ///< `y @ generic aliases x`
    std::string aliasProxy; ///< "generic", "surface", "texture" or "constant" with aliasOf
    /// `m @ multimem x, y`: a multimem address, "a virtual address which points to multiple
    /// distinct memory locations across devices" (PTX ISA 8.2.3): the global locations it names,
    /// one per GPU, each reached through m by multimem.* instructions only
    std::vector<std::string> multimemOf;
    std::vector<SourceLoc> multimemLocs; ///< where each of multimemOf is written
    bool isMultimem() const { return !multimemOf.empty(); }
    SourceLoc loc;
};

/** `P1:r0 = 5;` or herd's `1:r0 = 5;` */
struct RegisterInit {
    int thread = 0;
    std::string reg;
    std::int64_t value = 0;
    SourceLoc loc;
};

/** A reference to a final value: `P1:r0`, `1:r0`, `x`, `x@1`, `t[2]`, `t@1[2]`. */
struct Ref {
    enum class Kind { Register, Location };
    Kind kind = Kind::Register;
    int thread = 0;         ///< Register
    std::string name;       ///< register or location name
    std::optional<int> cta; ///< Location: `@C`
    std::optional<int> row; ///< Location: `[k]`
    SourceLoc loc;
};

/** Proposition of the final condition. */
struct Prop {
    enum class Kind { True, False, Eq, Ne, Not, And, Or, Implies };
    Kind kind = Kind::True;
    Ref lhs;                   ///< Eq / Ne
    std::optional<Ref> rhsRef; ///< Eq / Ne against another reference
    std::int64_t rhsValue = 0; ///< Eq / Ne against a constant (when rhsRef is empty)
    std::vector<std::shared_ptr<const Prop>> args; ///< Not (1), And/Or/Implies (2)
    SourceLoc loc;
};

struct Condition {
    ir::Quantifier quantifier = ir::Quantifier::Exists;
    std::shared_ptr<const Prop> prop;
    SourceLoc loc;
};

/** A whole litmus file. */
struct Test {
    std::string arch; ///< "PTX"
    std::string name;
    std::vector<std::string> docs; ///< quoted description lines after the name
    std::vector<LocationDecl> locations;
    std::vector<RegisterInit> registers;
    std::vector<Thread> threads;
    std::vector<Ref> observed; ///< `locations [x; P1:r0;]`
    std::optional<Condition> condition;
    std::string file;
};

} // namespace ptxmc::litmus
