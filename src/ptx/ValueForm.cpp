// Decodes the value qualifiers of ModuleOps.def's Arith and Setp rows through ValueForms.def.
#include "ptx/ValueForm.hpp"

#include "ptx/Tables.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace ptxmc::ptx {

namespace {

constexpr std::array kComparisons = {
#define PTXMC_COMPARISON(Name, spelling, Rel, UnsignedAlways, Unordered)                           \
    ComparisonRow{spelling, Relation::Rel, UnsignedAlways, Unordered},
#include "ptx/ValueForms.def"
};

// One row per spelling (Tables.hpp's Row): the last written row of a table wins.
constexpr std::array kCombines = {
#define PTXMC_COMBINE(Name, spelling) Row<Combine>{Combine::Name, spelling},
#include "ptx/ValueForms.def"
};
constexpr std::array kProductParts = {
#define PTXMC_PRODUCT_PART(Name, spelling) Row<ProductPart>{ProductPart::Name, spelling},
#include "ptx/ValueForms.def"
};
enum class Funnel {
#define PTXMC_FUNNEL(Name, spelling) Name,
#include "ptx/ValueForms.def"
};
constexpr std::array kFunnels = {
#define PTXMC_FUNNEL(Name, spelling) Row<Funnel>{Funnel::Name, spelling},
#include "ptx/ValueForms.def"
};
constexpr std::array kVectors = {
#define PTXMC_VECTOR(Name, spelling, Count) Row<int>{Count, spelling},
#include "ptx/ValueForms.def"
};

/** The value of the last row of `table` whose spelling `parts` writes after the opcode. */
template <class E, std::size_t N>
std::optional<E> lastWritten(const std::array<Row<E>, N>& table,
                             const std::vector<std::string>& parts) {
    std::optional<E> out;
    for (std::size_t i = 1; i < parts.size(); ++i)
        if (auto v = valueOf(table, parts[i])) out = v;
    return out;
}

Comparison comparisonOf(std::string_view spelling) {
    for (std::size_t i = 0; i < kComparisons.size(); ++i)
        if (kComparisons[i].spelling == spelling) return static_cast<Comparison>(i);
    return Comparison::None;
}

} // namespace

std::optional<ScalarType> scalarType(std::string_view p) {
    if (p == "pred") return ScalarType{ScalarType::Kind::Predicate, 1};
    if (p.size() < 2) return std::nullopt;
    ScalarType::Kind kind;
    switch (p[0]) {
    case 'u':
        kind = ScalarType::Kind::Unsigned;
        break;
    case 's':
        kind = ScalarType::Kind::Signed;
        break;
    case 'b':
        kind = ScalarType::Kind::Bits;
        break;
    case 'f':
        kind = ScalarType::Kind::Float;
        break;
    default:
        return std::nullopt;
    }
    int bits = 0;
    for (char c : p.substr(1)) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
        bits = bits * 10 + (c - '0');
        if (bits > 128) return std::nullopt;
    }
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64 && bits != 128) return std::nullopt;
    return ScalarType{kind, bits};
}

bool isVectorQualifier(std::string_view spelling) {
    return valueOf(kVectors, spelling).has_value();
}

ComparisonRow comparisonRow(Comparison c) {
    auto i = static_cast<std::size_t>(c);
    return i < kComparisons.size() ? kComparisons[i] : ComparisonRow{};
}

ValueForm valueForm(ModuleOp op, const std::vector<std::string>& parts) {
    ValueForm f;
    for (auto it = parts.rbegin(); it != parts.rend() && it + 1 != parts.rend(); ++it)
        if (auto t = scalarType(*it)) {
            if (!f.type)
                f.type = t;
            else if (!f.before) {
                f.before = t;
                break;
            }
        }
    f.elements = lastWritten(kVectors, parts).value_or(1);
    if (op == ModuleOp::Setp) {
        if (parts.size() > 1) f.comparison = comparisonOf(parts[1]);
        f.combine = lastWritten(kCombines, parts).value_or(Combine::None);
    }
    if (op == ModuleOp::Mul || op == ModuleOp::Mad)
        f.product = lastWritten(kProductParts, parts).value_or(ProductPart::Lo);
    if (op == ModuleOp::Shf) // a direction and a mode: each part on its own
        for (std::size_t i = 1; i < parts.size(); ++i)
            if (auto q = valueOf(kFunnels, parts[i])) switch (*q) {
                case Funnel::Left:
                    f.funnelLeft = true;
                    break;
                case Funnel::Right:
                    f.funnelLeft = false;
                    break;
                case Funnel::Clamp:
                    f.clamp = true;
                    break;
                case Funnel::Wrap:
                    f.clamp = false;
                    break;
                }
    return f;
}

} // namespace ptxmc::ptx
