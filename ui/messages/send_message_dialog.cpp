#include "ui/messages/send_message_dialog.h"

#include "ui/widgets/app_fonts.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace {

// RocketMQ's topic rule (Validators.VALID_PATTERN_STR).
bool validTopic(const QString &topic)
{
    static const QRegularExpression pattern(QStringLiteral("^[%|a-zA-Z0-9_-]{1,127}$"));
    return pattern.match(topic).hasMatch();
}

} // namespace

SendMessageDialog::SendMessageDialog(const QString &topic, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Send a test message"));
    topic_ = new QLineEdit(topic, this);
    topic_->setObjectName(QStringLiteral("sendTopic"));
    tags_ = new QLineEdit(this);
    tags_->setObjectName(QStringLiteral("sendTags"));
    tags_->setPlaceholderText(tr("optional, e.g. TagA"));
    keys_ = new QLineEdit(this);
    keys_->setObjectName(QStringLiteral("sendKeys"));
    keys_->setPlaceholderText(tr("optional, separated by spaces"));
    body_ = new QPlainTextEdit(this);
    body_->setObjectName(QStringLiteral("sendBody"));
    body_->setFont(fixedPitchFont());
    body_->setPlaceholderText(tr("Text or JSON, sent as UTF-8"));
    properties_ = new QPlainTextEdit(this);
    properties_->setObjectName(QStringLiteral("sendProperties"));
    properties_->setPlaceholderText(tr("optional, one key=value a line"));
    properties_->setMaximumHeight(properties_->fontMetrics().height() * 5);
    result_ = new QLabel(this);
    result_->setObjectName(QStringLiteral("sendResult"));
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(tr("&Topic:"), topic_);
    form->addRow(tr("T&ags:"), tags_);
    form->addRow(tr("&Keys:"), keys_);
    form->addRow(tr("&Body:"), body_);
    form->addRow(tr("&Properties:"), properties_);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    sendButton_ = buttons->addButton(tr("&Send"), QDialogButtonBox::ActionRole);
    sendButton_->setObjectName(QStringLiteral("sendButton"));
    sendButton_->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(sendButton_, &QPushButton::clicked, this, [this] {
        if (!validationError().isEmpty())
            return;
        emit sendRequested(message());
    });

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(result_);
    layout->addWidget(buttons);
    resize(520, 440);

    for (QLineEdit *edit : {topic_, tags_, keys_})
        connect(edit, &QLineEdit::textChanged, this, &SendMessageDialog::validate);
    connect(properties_, &QPlainTextEdit::textChanged, this, &SendMessageDialog::validate);
    validate();
}

client::Message SendMessageDialog::message() const
{
    client::Message m;
    m.topic = topic_->text().trimmed().toStdString();
    m.tags = tags_->text().trimmed().toStdString();
    for (const QString &key : keys_->text().split(QLatin1Char(' '), Qt::SkipEmptyParts))
        m.keys.push_back(key.toStdString());
    const QByteArray body = body_->toPlainText().toUtf8();
    m.body.assign(body.begin(), body.end());
    for (const QString &line : properties_->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq > 0)
            m.properties[line.left(eq).trimmed().toStdString()] = line.mid(eq + 1).trimmed().toStdString();
    }
    return m;
}

QString SendMessageDialog::validationError() const
{
    const QString topic = topic_->text().trimmed();
    if (topic.isEmpty())
        return tr("Enter a topic.");
    if (!validTopic(topic))
        return tr("A topic name has at most 127 letters, digits, “_”, “-”, “|” or “%”.");
    int lineNumber = 0;
    for (const QString &line : properties_->toPlainText().split(QLatin1Char('\n'))) {
        ++lineNumber;
        if (line.trimmed().isEmpty())
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0 || line.left(eq).trimmed().isEmpty() || line.mid(eq + 1).trimmed().isEmpty())
            return tr("Property line %1 is not key=value.").arg(lineNumber);
    }
    return {};
}

void SendMessageDialog::validate()
{
    const QString error = validationError();
    sendButton_->setEnabled(error.isEmpty() && !sending_);
    if (!sending_)
        result_->setText(error);
}

void SendMessageDialog::showSending()
{
    sending_ = true;
    sendButton_->setEnabled(false);
    result_->setText(tr("Sending…"));
}

void SendMessageDialog::showResult(const client::SendResult &result)
{
    sending_ = false;
    validate();
    result_->setText(tr("Sent (%1): message ID %2, queue %3 on %4, queue offset %5.")
                         .arg(QString::fromStdString(std::string(client::sendStatusName(result.status))),
                              QString::fromStdString(result.msgId))
                         .arg(result.queue.queueId)
                         .arg(QString::fromStdString(result.queue.brokerName))
                         .arg(result.queueOffset));
}

void SendMessageDialog::showError(const QString &error)
{
    sending_ = false;
    validate();
    result_->setText(tr("Not sent: %1").arg(error));
}

QString SendMessageDialog::resultText() const
{
    return result_->text();
}

} // namespace mqdesk::ui
