#include "cluster/write_stream.h"

#include <nats/nats.h>

namespace verdict::cluster {

namespace {

std::string said(natsStatus status, jsErrCode error = static_cast<jsErrCode>(0)) {
  std::string text = natsStatus_GetText(status);
  if (error != 0) text += " (JetStream error " + std::to_string(static_cast<int>(error)) + ")";
  return text;
}

} // namespace

// The connection and the JetStream context over it; libnats's own threads read and reconnect.
struct WriteStream::Nats {
  natsConnection *connection = nullptr;
  jsCtx *jetstream = nullptr;
  ~Nats() {
    jsCtx_Destroy(jetstream);
    natsConnection_Destroy(connection);
  }
};

WriteStream::WriteStream(StreamSettings settings)
    : settings_(std::move(settings)), nats_(std::make_unique<Nats>()) {
  if (settings_.servers.empty()) throw StreamUnavailable("no NATS server named");
  natsOptions *options = nullptr;
  if (natsOptions_Create(&options) != NATS_OK) throw StreamUnavailable("libnats: no options");
  std::vector<const char *> servers;
  for (const auto &server : settings_.servers)
    servers.push_back(server.c_str());
  natsOptions_SetServers(options, servers.data(), static_cast<int>(servers.size()));
  natsOptions_SetName(options, settings_.node.c_str());
  natsOptions_SetTimeout(options, 2000);
  // A server that goes is left for another at once; the connection comes back by itself.
  natsOptions_SetMaxReconnect(options, -1);
  natsOptions_SetReconnectWait(options, 250);
  natsOptions_SetPingInterval(options, 2000);
  natsOptions_SetMaxPingsOut(options, 2);
  // While disconnected, a publish is refused at once rather than kept to be sent later: the
  // reader is told the write was not taken.
  natsOptions_SetFailRequestsOnDisconnect(options, true);
  const auto connected = natsConnection_Connect(&nats_->connection, options);
  natsOptions_Destroy(options);
  if (connected != NATS_OK)
    throw StreamUnavailable("no NATS server of the cluster answers: " + said(connected));

  jsOptions js_options;
  jsOptions_Init(&js_options);
  js_options.Wait = settings_.publish_wait.count();
  if (const auto made = natsConnection_JetStream(&nats_->jetstream, nats_->connection, &js_options);
      made != NATS_OK)
    throw StreamUnavailable("JetStream: " + said(made));

  jsStreamInfo *info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  auto found = js_GetStreamInfo(&info, nats_->jetstream, settings_.stream.c_str(), nullptr, &error);
  if (found == NATS_NOT_FOUND) {
    jsStreamConfig config;
    jsStreamConfig_Init(&config);
    const char *subjects[] = {settings_.subject.c_str()};
    config.Name = settings_.stream.c_str();
    config.Subjects = subjects;
    config.SubjectsLen = 1;
    config.Storage = js_FileStorage;
    config.Replicas = settings_.replicas;
    config.Retention = js_LimitsPolicy;
    config.Duplicates =
        std::chrono::duration_cast<std::chrono::nanoseconds>(settings_.duplicate_window).count();
    found = js_AddStream(&info, nats_->jetstream, &config, nullptr, &error);
  }
  jsStreamInfo_Destroy(info);
  if (found != NATS_OK)
    throw StreamUnavailable("the stream " + settings_.stream +
                            " cannot be found or made: " + said(found, error));
}

WriteStream::~WriteStream() = default;

uint64_t WriteStream::publish(std::string_view payload, const std::string &id) {
  jsPubOptions options;
  jsPubOptions_Init(&options);
  options.MsgId = id.c_str();
  options.MaxWait = settings_.publish_wait.count();
  jsPubAck *ack = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const auto sent = js_Publish(&ack, nats_->jetstream, settings_.subject.c_str(), payload.data(),
                               static_cast<int>(payload.size()), &options, &error);
  if (sent != NATS_OK) {
    jsPubAck_Destroy(ack);
    throw StreamUnavailable("the write was not acknowledged by a majority of the cluster: " +
                            said(sent, error));
  }
  const auto sequence = ack->Sequence;
  jsPubAck_Destroy(ack);
  return sequence;
}

std::optional<StreamEntry> WriteStream::entry_at(uint64_t sequence) {
  natsMsg *message = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const auto got =
      js_GetMsg(&message, nats_->jetstream, settings_.stream.c_str(), sequence, nullptr, &error);
  if (got == NATS_NOT_FOUND) return std::nullopt;
  if (got != NATS_OK) throw StreamUnavailable("the stream cannot be read: " + said(got, error));
  StreamEntry entry{sequence, std::string(natsMsg_GetData(message),
                                          static_cast<size_t>(natsMsg_GetDataLength(message)))};
  natsMsg_Destroy(message);
  return entry;
}

uint64_t WriteStream::last_sequence() {
  jsStreamInfo *info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const auto got =
      js_GetStreamInfo(&info, nats_->jetstream, settings_.stream.c_str(), nullptr, &error);
  if (got != NATS_OK) throw StreamUnavailable("the stream cannot be read: " + said(got, error));
  const auto last = info->State.LastSeq;
  jsStreamInfo_Destroy(info);
  return last;
}

} // namespace verdict::cluster
