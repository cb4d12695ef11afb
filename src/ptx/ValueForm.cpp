// Decodes the value qualifiers of ModuleOps.def's Arith and Setp rows through ValueForms.def.
#include "ptx/ValueForm.hpp"

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

struct CombineRow {
    std::string_view spelling;
    Combine combine;
};
constexpr std::array kCombines = {
#define PTXMC_COMBINE(Name, spelling) CombineRow{spelling, Combine::Name},
#include "ptx/ValueForms.def"
};

struct ProductRow {
    std::string_view spelling;
    ProductPart part;
};
constexpr std::array kProductParts = {
#define PTXMC_PRODUCT_PART(Name, spelling) ProductRow{spelling, ProductPart::Name},
#include "ptx/ValueForms.def"
};

enum class Funnel {
#define PTXMC_FUNNEL(Name, spelling) Name,
#include "ptx/ValueForms.def"
};
struct FunnelRow {
    std::string_view spelling;
    Funnel qualifier;
};
constexpr std::array kFunnels = {
#define PTXMC_FUNNEL(Name, spelling) FunnelRow{spelling, Funnel::Name},
#include "ptx/ValueForms.def"
};

struct VectorRow {
    std::string_view spelling;
    int count;
};
constexpr std::array kVectors = {
#define PTXMC_VECTOR(Name, spelling, Count) VectorRow{spelling, Count},
#include "ptx/ValueForms.def"
};

bool written(const std::vector<std::string>& parts, std::string_view q) {
    return parts.size() > 1 && std::find(parts.begin() + 1, parts.end(), q) != parts.end();
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
    return std::any_of(kVectors.begin(), kVectors.end(),
                       [&](const VectorRow& row) { return row.spelling == spelling; });
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
    for (const VectorRow& row : kVectors)
        if (written(parts, row.spelling)) f.elements = row.count;
    if (op == ModuleOp::Setp) {
        if (parts.size() > 1) f.comparison = comparisonOf(parts[1]);
        for (const CombineRow& row : kCombines)
            if (written(parts, row.spelling)) f.combine = row.combine;
    }
    if (op == ModuleOp::Mul || op == ModuleOp::Mad)
        for (const ProductRow& row : kProductParts)
            if (written(parts, row.spelling)) f.product = row.part;
    if (op == ModuleOp::Shf)
        for (const FunnelRow& row : kFunnels)
            if (written(parts, row.spelling)) switch (row.qualifier) {
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
