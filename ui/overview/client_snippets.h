#pragma once

// ClientSnippets: the Overview's "Connect a client" tabs — Java (rocketmq-client), Spring Boot
// (rocketmq-spring-boot-starter), Go (rocketmq-client-go/v2) and Node.js (ali-ons) naming the
// NameServer address of the cluster the views show, and the RocketMQ 5 SDKs (Java
// rocketmq-client-java, Node.js rocketmq-client-nodejs, Python rocketmq-python-client) naming its
// gRPC endpoint — each a
// ready-to-paste snippet in a monospace read-only text, with a Copy button that puts exactly that
// snippet on the clipboard. The 5.x tabs are hidden while no gRPC endpoint is known (a saved
// connection names only NameServers). The snippets are the README's (proven against MQDesk by the
// interop and conformance tests) with the address filled in; code is never translated.

#include <QString>
#include <QWidget>

#include <array>

class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace mqdesk::ui {

class ClientSnippets : public QWidget
{
    Q_OBJECT

public:
    enum Language { Java, SpringBoot, Go, Node, Java5, Node5, Python5, LanguageCount };

    explicit ClientSnippets(QWidget *parent = nullptr);

    // Whether `language` speaks gRPC to a 5.x endpoint (else remoting to the NameServers).
    static bool isGrpc(Language language) { return language == Java5 || language == Node5 || language == Python5; }
    // The snippet for `language` with its address filled in: `address` is the NameServer list
    // ("host:port;host:port") for remoting clients, the gRPC endpoint ("host:port") for 5.x ones.
    static QString snippet(Language language, const QString &address);
    // "java", "spring", "go", "node", "java5", "node5", "python5": object names (snippet-<id>,
    // copySnippet-<id>) and screenshots.
    static QString id(Language language);

    void setNamesrvAddress(const QString &namesrvAddr);
    QString namesrvAddress() const { return namesrvAddr_; }
    // The gRPC endpoint the 5.x tabs name; empty hides them.
    void setGrpcEndpoint(const QString &endpoint);
    QString grpcEndpoint() const { return grpcEndpoint_; }

    QTabWidget *tabs() const { return tabs_; }
    QPlainTextEdit *text(Language language) const { return texts_[language]; }
    QPushButton *copyButton(Language language) const { return copyButtons_[language]; }

private:
    QString addressFor(Language language) const { return isGrpc(language) ? grpcEndpoint_ : namesrvAddr_; }
    void showSnippets();

    QString namesrvAddr_;
    QString grpcEndpoint_;
    QTabWidget *tabs_ = nullptr;
    std::array<QPlainTextEdit *, LanguageCount> texts_{};
    std::array<QPushButton *, LanguageCount> copyButtons_{};
};

} // namespace mqdesk::ui
