// The decoded qualifiers of an instruction `ptxmc kernel` computes on known values
// (ValueForms.def).
#pragma once

#include "ptx/ModuleOps.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxmc::ptx {

/** A scalar type qualifier: .u32, .s64, .b16, .f32, .pred (5.2.1 "Fundamental Types"). */
struct ScalarType {
    enum class Kind { Unsigned, Signed, Bits, Float, Predicate };
    Kind kind = Kind::Bits;
    int bits = 64; ///< as written: 1 for .pred, 8 to 128 otherwise

    bool isSigned() const { return kind == Kind::Signed; }
    bool isFloat() const { return kind == Kind::Float; }
    bool operator==(const ScalarType&) const = default;
};

/** `spelling` as a scalar type (.u8 to .u128, .s, .b, .f, .pred); nullopt for any other. */
std::optional<ScalarType> scalarType(std::string_view spelling);

/** setp's comparison operator: one per row of ValueForms.def. */
enum class Comparison {
#define PTXMC_COMPARISON(Name, spelling, Relation, UnsignedAlways, Unordered) Name,
#include "ptx/ValueForms.def"
    None ///< no comparison written (not a setp, or a spelling no row names)
};

/** What a comparison tests, its operands' order aside. */
enum class Relation { Eq, Ne, Lt, Le, Gt, Ge, Num, Nan };

struct ComparisonRow {
    std::string_view spelling;
    Relation relation = Relation::Eq;
    bool unsignedAlways = false; ///< .lo/.ls/.hi/.hs: unsigned whatever the type
    bool unordered = false;      ///< .equ ... .geu: true where an operand is NaN
};
ComparisonRow comparisonRow(Comparison c);

/** setp's .and/.or/.xor with a third predicate. */
enum class Combine {
    None,
#define PTXMC_COMBINE(Name, spelling) Name,
#include "ptx/ValueForms.def"
};

/** Which bits of a product mul and mad keep. */
enum class ProductPart {
#define PTXMC_PRODUCT_PART(Name, spelling) Name,
#include "ptx/ValueForms.def"
};

/** The value qualifiers of one instruction (arithmetic, conversion, setp, an access), decoded once.
 */
struct ValueForm {
    std::optional<ScalarType> type;   ///< the last type written: the operands' (cvt: the source)
    std::optional<ScalarType> before; ///< the type written before it (cvt: the destination)
    Comparison comparison = Comparison::None;
    Combine combine = Combine::None;
    ProductPart product = ProductPart::Lo;
    bool funnelLeft = false; ///< shf.l (shf.r otherwise)
    bool clamp = false;      ///< shf.clamp (shf.wrap otherwise)
    int elements = 1;        ///< a vector access's element count (.v2, .v4, .v8)

    /** The type's width in bytes (8 where no byte-sized type is written): a load's element. */
    std::uint64_t bytes() const {
        return type && type->bits >= 8 ? static_cast<std::uint64_t>(type->bits) / 8 : 8;
    }
};

/** The value qualifiers of an instruction whose opcode's dotted parts are `parts`. */
ValueForm valueForm(ModuleOp op, const std::vector<std::string>& parts);

/** Whether `spelling` is a vector qualifier (.v2, .v4, .v8). */
bool isVectorQualifier(std::string_view spelling);

} // namespace ptxmc::ptx
