//===--- ElementTypes.cpp - What a container or aggregate holds -----------===//

#include "ElementTypes.h"
#include "clang/AST/DeclTemplate.h"
#include <optional>

namespace clang::tidy::torch_tidy::utils {

static const ClassTemplateSpecializationDecl *standardTemplate(QualType Type) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Type.getNonReferenceType()->getAsCXXRecordDecl());
  return Spec && Spec->isInStdNamespace() ? Spec : nullptr;
}

static llvm::StringRef nameOf(const ClassTemplateSpecializationDecl &Spec) {
  return Spec.getDeclName().isIdentifier() ? Spec.getName() : "";
}

bool isStandardMap(QualType Type) {
  const auto *Spec = standardTemplate(Type);
  if (!Spec)
    return false;
  llvm::StringRef Name = nameOf(*Spec);
  return Name == "map" || Name == "unordered_map" || Name == "multimap" ||
         Name == "unordered_multimap";
}

/// What `*it` gives for an iterator class (its name says so, and it has an
/// operator*): a std::map iterator, __gnu_cxx::__normal_iterator.
static std::optional<QualType> iteratorElement(const CXXRecordDecl &Record) {
  if (!Record.getDeclName().isIdentifier() ||
      !llvm::StringRef(Record.getName().lower()).ends_with("iterator") || !Record.hasDefinition())
    return std::nullopt;
  for (const CXXMethodDecl *Method : Record.methods())
    if (Method->getOverloadedOperator() == OO_Star && Method->getNumParams() == 0)
      return Method->getReturnType().getNonReferenceType();
  return std::nullopt;
}

llvm::SmallVector<QualType, 4> elementTypes(QualType Type) {
  llvm::SmallVector<QualType, 4> Out;
  if (const CXXRecordDecl *Record =
          Type.getNonReferenceType()->getAsCXXRecordDecl())
    if (auto Element = iteratorElement(*Record)) {
      Out.push_back(*Element);
      return Out;
    }
  if (const auto *Spec = standardTemplate(Type)) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    auto TypeArg = [&](unsigned I) {
      if (I < Args.size() && Args[I].getKind() == TemplateArgument::Type)
        Out.push_back(Args[I].getAsType());
    };
    llvm::StringRef Name = nameOf(*Spec);
    if (Name == "vector" || Name == "deque" || Name == "list" ||
        Name == "array" || Name == "optional" || Name == "set")
      TypeArg(0);
    else if (isStandardMap(Type))
      TypeArg(1);
    else if (Name == "pair")
      TypeArg(0), TypeArg(1);
    else if (Name == "tuple" && Args.size() == 1 &&
             Args[0].getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &Element : Args[0].pack_elements())
        if (Element.getKind() == TemplateArgument::Type)
          Out.push_back(Element.getAsType());
    return Out;
  }
  const CXXRecordDecl *Record = Type.getNonReferenceType()->getAsCXXRecordDecl();
  if (Record && Record->hasDefinition() && Record->isAggregate() &&
      !Record->isInStdNamespace())
    for (const FieldDecl *Field : Record->fields())
      Out.push_back(Field->getType());
  return Out;
}

} // namespace clang::tidy::torch_tidy::utils
