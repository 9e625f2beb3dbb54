#pragma once

// ClientSnippets: the Overview's "Connect a client" tabs — Java (rocketmq-client), Spring Boot
// (rocketmq-spring-boot-starter), Go (rocketmq-client-go/v2) and Node.js (ali-ons) — each a
// ready-to-paste snippet naming the NameServer address of the cluster the views show, in a
// monospace read-only text, with a Copy button that puts exactly that snippet on the clipboard.
// The snippets are the README's (proven against MQDesk by the interop tests) with the address
// filled in; code is never translated.

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
    enum Language { Java, SpringBoot, Go, Node, LanguageCount };

    explicit ClientSnippets(QWidget *parent = nullptr);

    // The snippet for `language` with `namesrvAddr` ("host:port;host:port") filled in.
    static QString snippet(Language language, const QString &namesrvAddr);
    // "java", "spring", "go", "node": object names (snippet-<id>, copySnippet-<id>) and screenshots.
    static QString id(Language language);

    void setNamesrvAddress(const QString &namesrvAddr);
    QString namesrvAddress() const { return namesrvAddr_; }

    QTabWidget *tabs() const { return tabs_; }
    QPlainTextEdit *text(Language language) const { return texts_[language]; }
    QPushButton *copyButton(Language language) const { return copyButtons_[language]; }

private:
    QString namesrvAddr_;
    QTabWidget *tabs_ = nullptr;
    std::array<QPlainTextEdit *, LanguageCount> texts_{};
    std::array<QPushButton *, LanguageCount> copyButtons_{};
};

} // namespace mqdesk::ui
