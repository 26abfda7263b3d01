// The editor's desk's pages. Each desk page opens with the desk's bar (who is signed in, the
// sections, sign-out); forms keep what was typed and show each fault beside its field.
#pragma once

#include <string>
#include <vector>

#include "domain/content.h"
#include "domain/model.h"
#include "render/views.h"

namespace verdict::desk {

// Who is at the desk, and which section they are in ("desk", "categories", "log").
struct Bar {
  std::string email, csrf, section;
};

struct SignInForm {
  std::string email, next, problem;
};
std::string sign_in(const Views &views, const SiteCopy &site, const SignInForm &form);

std::string front(const Views &views, const SiteCopy &site, const Bar &bar,
                  const DeskCounts &counts, const std::vector<EditEntry> &latest);

// `saved`: what the last change was, said once after it ("Saved Agents.").
std::string categories(const Views &views, const SiteCopy &site, const Bar &bar,
                       const std::vector<CategoryListing> &categories, const std::string &saved);

// A category's form, new (`editing` empty) or the one at `editing`, with what was typed.
struct CategoryForm {
  std::string editing;
  ContentCategory values;
  FieldFaults faults;
  std::string problem; // about the whole form (a slug taken, say)
};
std::string category_form(const Views &views, const SiteCopy &site, const Bar &bar,
                          const CategoryForm &form);

// "Delete X?" with one button that posts to `action`.
struct Confirmation {
  std::string eyebrow, heading, question, action, back, problem;
};
std::string confirm(const Views &views, const SiteCopy &site, const Bar &bar,
                    const Confirmation &confirmation);

std::string edit_log(const Views &views, const SiteCopy &site, const Bar &bar,
                     const Paged<EditEntry> &entries);

} // namespace verdict::desk
