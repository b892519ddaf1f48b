// The serving surfaces (serve_surfaces.hpp) told what the serve loop does (controller/
// loop_observer.hpp): leading, the initial sync, journal failures, relists, quarantine.
#pragma once

#include <optional>
#include <string>

#include "cmd/serve_archive.hpp"
#include "cmd/serve_surfaces.hpp"
#include "controller/loop_observer.hpp"

namespace koordq::cmd {

class SurfacesObserver : public controller::ServeObserver {
 public:
  // `leader`: leading from the start (--simulate).
  // `archive`: serve --archive-url's writer (null without), started with the journal.
  SurfacesObserver(ServeSurfaces& surfaces, bool leader, std::shared_ptr<ServeArchive> archive = nullptr)
      : surfaces_(surfaces), leader_(leader), archive_(std::move(archive)) {}

  void quarantined() override { surfaces_.metrics().count_quarantine(); }
  Status serving(journal::Journal& journal, actors::runtime::DecisionEngine& engine) override {
    if (archive_) {
      archive_->set_leading(leader_);
      archive_->start(journal, surfaces_.metrics(), surfaces_.now());
    }
    return surfaces_.attach(journal, engine, leader_);
  }
  void stop_serving() override {
    if (archive_) archive_->stop();
    surfaces_.stop();
  }
  void relisted(const char* resource) override { surfaces_.metrics().count_relist(resource); }
  Status became_leader() override {
    if (archive_) archive_->set_leading(true);
    return surfaces_.became_leader();
  }
  void stopped_leading() override {
    if (archive_) archive_->set_leading(false);
    surfaces_.stopped_leading();
  }
  Status initial_sync_done() override { return surfaces_.initial_sync_done(); }
  void journal_failure(std::optional<std::string> error) override { surfaces_.set_journal_failure(std::move(error)); }

 protected:
  ServeSurfaces& surfaces_;

 private:
  bool leader_;
  std::shared_ptr<ServeArchive> archive_;
};

}  // namespace koordq::cmd
