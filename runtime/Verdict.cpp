//===--- Verdict.cpp - What the probe says about each plan ----------------===//

#include "runtime/Verdict.h"

#include <array>
#include <map>
#include <set>

namespace torch_tidy::plan {

using nlohmann::json;

namespace {

const std::array<const char *, 4> &outcomes() {
  static const std::array<const char *, 4> Names = {
      outcome::Confirmed, outcome::NotReproduced, outcome::Inconclusive,
      outcome::Invalid};
  return Names;
}

/// The optional string fields of a verdict and where each is kept.
const std::map<std::string, std::string Verdict::*> &stringFields() {
  static const std::map<std::string, std::string Verdict::*> Fields = {
      {"message", &Verdict::Message}, {"reason", &Verdict::Reason},
      {"device", &Verdict::Device},   {"id", &Verdict::Id},
      {"check", &Verdict::Check},     {"file", &Verdict::File}};
  return Fields;
}

std::optional<ValidationError> checkVerdict(const json &J,
                                            const std::string &Path) {
  if (!J.is_object())
    return ValidationError{Path, "a verdict must be a JSON object"};
  for (auto It = J.begin(); It != J.end(); ++It) {
    const std::string &Key = It.key();
    std::string At = Path + "/" + Key;
    if (Key == "verdict") {
      bool Known = false;
      for (const char *Name : outcomes())
        Known |= It->is_string() && It->get<std::string>() == Name;
      if (!Known)
        return ValidationError{At, "must be confirmed, not-reproduced, "
                                   "inconclusive or invalid, got " +
                                       It->dump()};
    } else if (stringFields().count(Key)) {
      if (!It->is_string())
        return ValidationError{At, "must be a string"};
    } else if (Key == "step") {
      if (!It->is_number_integer() || It->get<int64_t>() < 0)
        return ValidationError{At, "must be a non-negative integer"};
    } else if (Key == "micros") {
      if (!It->is_number() || It->get<double>() < 0)
        return ValidationError{At, "must be a non-negative number"};
    } else {
      return ValidationError{At, "unknown field"};
    }
  }
  if (!J.contains("verdict"))
    return ValidationError{Path, "missing required field 'verdict'"};
  return std::nullopt;
}

Verdict readVerdict(const json &J) {
  Verdict V;
  V.Outcome = J.at("verdict");
  for (const auto &[Key, Field] : stringFields())
    if (J.contains(Key))
      V.*Field = J.at(Key);
  if (J.contains("step"))
    V.Step = J.at("step").get<int64_t>();
  if (J.contains("micros"))
    V.Micros = J.at("micros").get<double>();
  return V;
}

std::optional<ValidationError> checkSummary(const json &Summary) {
  if (!Summary.is_object())
    return ValidationError{"/summary", "must be an object of counts"};
  for (auto It = Summary.begin(); It != Summary.end(); ++It)
    if (!It->is_number_integer() || It->get<int64_t>() < 0)
      return ValidationError{"/summary/" + It.key(),
                             "must be a non-negative integer"};
  return std::nullopt;
}

std::optional<ValidationError> checkDocument(const json &J) {
  if (!J.is_object())
    return ValidationError{"", "a verdicts file must be a JSON object"};
  static const std::set<std::string> Known = {"format", "version",   "backend",
                                              "device", "inventory", "verdicts",
                                              "summary"};
  for (auto It = J.begin(); It != J.end(); ++It)
    if (!Known.count(It.key()))
      return ValidationError{"/" + It.key(), "unknown field"};
  if (!J.contains("format") || J.at("format") != kVerdictsFormatName)
    return ValidationError{"/format", std::string("must be \"") +
                                          kVerdictsFormatName + "\""};
  if (!J.contains("version") || J.at("version") != kVerdictsFormatVersion)
    return ValidationError{"/version",
                           "must be " + std::to_string(kVerdictsFormatVersion)};
  for (const char *Key : {"backend", "device"})
    if (J.contains(Key) && !J.at(Key).is_string())
      return ValidationError{std::string("/") + Key, "must be a string"};
  if (J.contains("inventory") && !J.at("inventory").is_object())
    return ValidationError{"/inventory", "must be an object"};
  if (J.contains("summary"))
    if (auto Error = checkSummary(J.at("summary")))
      return Error;
  if (!J.contains("verdicts") || !J.at("verdicts").is_array())
    return ValidationError{"/verdicts", "must be an array of verdicts"};
  const json &Verdicts = J.at("verdicts");
  for (size_t I = 0; I < Verdicts.size(); ++I)
    if (auto Error =
            checkVerdict(Verdicts[I], "/verdicts/" + std::to_string(I)))
      return Error;
  return std::nullopt;
}

} // namespace

std::variant<Verdict, ValidationError> parseVerdict(const json &J) {
  if (auto Error = checkVerdict(J, ""))
    return *Error;
  return readVerdict(J);
}

json toJson(const Verdict &V) {
  json J = {{"verdict", V.Outcome}};
  for (const auto &[Key, Field] : stringFields())
    if (!(V.*Field).empty())
      J[Key] = V.*Field;
  if (V.Step)
    J["step"] = *V.Step;
  if (V.Micros)
    J["micros"] = *V.Micros;
  return J;
}

std::variant<VerdictsDocument, ValidationError> parseVerdicts(const json &J) {
  if (auto Error = checkDocument(J))
    return *Error;
  VerdictsDocument D;
  D.Backend = J.value("backend", "");
  D.Device = J.value("device", "");
  D.Inventory = J.value("inventory", json());
  for (const json &Item : J.at("verdicts"))
    D.Verdicts.push_back(readVerdict(Item));
  return D;
}

json toJson(const VerdictsDocument &D) {
  json Verdicts = json::array();
  json Summary = {{"plans", D.Verdicts.size()}};
  for (const char *Name : outcomes())
    Summary[Name] = 0;
  for (const Verdict &V : D.Verdicts) {
    Verdicts.push_back(toJson(V));
    Summary[V.Outcome] = Summary[V.Outcome].get<int>() + 1;
  }
  json J = {{"format", kVerdictsFormatName},
            {"version", kVerdictsFormatVersion}};
  if (!D.Backend.empty())
    J["backend"] = D.Backend;
  if (!D.Device.empty())
    J["device"] = D.Device;
  if (!D.Inventory.is_null())
    J["inventory"] = D.Inventory;
  J["verdicts"] = std::move(Verdicts);
  J["summary"] = std::move(Summary);
  return J;
}

} // namespace torch_tidy::plan
