#include "ui/overview/client_snippets.h"

#include "ui/widgets/app_fonts.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace {

// The addresses of "host:port;host:port" as Go string literals: "host:port", "host:port".
QString goAddressList(const QString &namesrvAddr)
{
    QStringList quoted;
    for (const QString &address : namesrvAddr.split(QLatin1Char(';'), Qt::SkipEmptyParts))
        quoted << QLatin1Char('"') + address.trimmed() + QLatin1Char('"');
    return quoted.join(QStringLiteral(", "));
}

} // namespace

QString ClientSnippets::id(Language language)
{
    switch (language) {
    case Java:
        return QStringLiteral("java");
    case SpringBoot:
        return QStringLiteral("spring");
    case Go:
        return QStringLiteral("go");
    case Java5:
        return QStringLiteral("java5");
    case Node5:
        return QStringLiteral("node5");
    case Python5:
        return QStringLiteral("python5");
    case Node:
    case LanguageCount:
        break;
    }
    return QStringLiteral("node");
}

QString ClientSnippets::snippet(Language language, const QString &address)
{
    switch (language) {
    case Java:
        return QStringLiteral(
                   "<!-- pom.xml: rocketmq-client 5.5.0 (or 4.9.8) -->\n"
                   "<dependency>\n"
                   "  <groupId>org.apache.rocketmq</groupId>\n"
                   "  <artifactId>rocketmq-client</artifactId>\n"
                   "  <version>5.5.0</version>\n"
                   "</dependency>\n"
                   "\n"
                   "DefaultMQProducer producer = new DefaultMQProducer(\"MyProducerGroup\");\n"
                   "producer.setNamesrvAddr(\"%1\");\n"
                   "producer.start();\n"
                   "SendResult result = producer.send(\n"
                   "    new Message(\"TopicTest\", \"TagA\", \"hello\".getBytes(StandardCharsets.UTF_8)));\n"
                   "\n"
                   "DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(\"MyConsumerGroup\");\n"
                   "consumer.setNamesrvAddr(\"%1\");\n"
                   "consumer.subscribe(\"TopicTest\", \"*\");\n"
                   "consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {\n"
                   "    msgs.forEach(m -> System.out.println(new String(m.getBody(), StandardCharsets.UTF_8)));\n"
                   "    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;\n"
                   "});\n"
                   "consumer.start();\n")
            .arg(address);
    case SpringBoot:
        return QStringLiteral("<!-- pom.xml: org.apache.rocketmq:rocketmq-spring-boot-starter:2.3.5 -->\n"
                              "<dependency>\n"
                              "  <groupId>org.apache.rocketmq</groupId>\n"
                              "  <artifactId>rocketmq-spring-boot-starter</artifactId>\n"
                              "  <version>2.3.5</version>\n"
                              "</dependency>\n"
                              "\n"
                              "# application.properties\n"
                              "rocketmq.name-server=%1\n"
                              "rocketmq.producer.group=my-producer-group\n")
            .arg(address);
    case Go:
        return QStringLiteral(
                   "// go get github.com/apache/rocketmq-client-go/v2\n"
                   "p, _ := rocketmq.NewProducer(\n"
                   "\tproducer.WithNsResolver(primitive.NewPassthroughResolver([]string{%1})),\n"
                   "\tproducer.WithGroupName(\"PG\"))\n"
                   "_ = p.Start()\n"
                   "res, err := p.SendSync(context.Background(),\n"
                   "\tprimitive.NewMessage(\"TopicTest\", []byte(\"hello\")).WithTag(\"TagA\").WithKeys([]string{\"k1\"}))\n"
                   "\n"
                   "c, _ := rocketmq.NewPushConsumer(\n"
                   "\tconsumer.WithNsResolver(primitive.NewPassthroughResolver([]string{%1})),\n"
                   "\tconsumer.WithGroupName(\"CG\"),\n"
                   "\tconsumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset))\n"
                   "_ = c.Subscribe(\"TopicTest\", consumer.MessageSelector{Type: consumer.TAG, Expression: \"TagA || TagC\"},\n"
                   "\tfunc(ctx context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {\n"
                   "\t\treturn consumer.ConsumeSuccess, nil\n"
                   "\t})\n"
                   "_ = c.Start()\n")
            .arg(goAddressList(address));
    case Java5:
        return QStringLiteral(
                   "<!-- pom.xml: the RocketMQ 5 SDK, gRPC to the endpoint (a Proxy's, here MQDesk's) -->\n"
                   "<dependency>\n"
                   "  <groupId>org.apache.rocketmq</groupId>\n"
                   "  <artifactId>rocketmq-client-java</artifactId>\n"
                   "  <version>5.2.0</version>\n"
                   "</dependency>\n"
                   "\n"
                   "ClientServiceProvider provider = ClientServiceProvider.loadService();\n"
                   "ClientConfiguration configuration = ClientConfiguration.newBuilder()\n"
                   "    .setEndpoints(\"%1\")\n"
                   "    // TLS on, the SDK's default: the endpoint serves TLS and plaintext alike\n"
                   "    .build();\n"
                   "Producer producer = provider.newProducerBuilder()\n"
                   "    .setClientConfiguration(configuration)\n"
                   "    .setTopics(\"TopicTest\")\n"
                   "    .build();\n"
                   "SendReceipt receipt = producer.send(provider.newMessageBuilder()\n"
                   "    .setTopic(\"TopicTest\").setTag(\"TagA\").setKeys(\"k1\")\n"
                   "    .setBody(\"hello\".getBytes(StandardCharsets.UTF_8)).build());\n"
                   "\n"
                   "SimpleConsumer consumer = provider.newSimpleConsumerBuilder()\n"
                   "    .setClientConfiguration(configuration)\n"
                   "    .setConsumerGroup(\"MyConsumerGroup\")\n"
                   "    .setSubscriptionExpressions(Map.of(\"TopicTest\", new FilterExpression(\"TagA\", FilterExpressionType.TAG)))\n"
                   "    .setAwaitDuration(Duration.ofSeconds(10))\n"
                   "    .build();\n"
                   "for (MessageView message : consumer.receive(16, Duration.ofSeconds(30)))\n"
                   "    consumer.ack(message);\n")
            .arg(address);
    case Node5:
        return QStringLiteral("// npm install rocketmq-client-nodejs (the RocketMQ 5 SDK, gRPC)\n"
                              "const { Producer, SimpleConsumer } = require('rocketmq-client-nodejs');\n"
                              "const producer = new Producer({ endpoints: '%1' });\n"
                              "await producer.startup();\n"
                              "const receipt = await producer.send({ topic: 'TopicTest', tag: 'TagA', body: Buffer.from('hello') });\n"
                              "\n"
                              "const consumer = new SimpleConsumer({ endpoints: '%1', consumerGroup: 'MyConsumerGroup',\n"
                              "  subscriptions: new Map([ [ 'TopicTest', 'TagA' ] ]), awaitDuration: 10000 });\n"
                              "await consumer.startup();\n"
                              "for (const message of await consumer.receive(16)) await consumer.ack(message);\n")
            .arg(address);
    case Python5:
        return QStringLiteral("# pip install rocketmq-python-client==5.1.2 (the RocketMQ 5 SDK, gRPC)\n"
                              "from rocketmq import ClientConfiguration, Credentials, FilterExpression, Message, Producer, SimpleConsumer\n"
                              "\n"
                              "config = ClientConfiguration(\"%1\", Credentials())\n"
                              "producer = Producer(config, (\"TopicTest\",))\n"
                              "producer.startup()\n"
                              "message = Message()\n"
                              "message.topic = \"TopicTest\"\n"
                              "message.tag = \"TagA\"\n"
                              "message.keys = \"k1\"\n"
                              "message.body = b\"hello\"\n"
                              "receipt = producer.send(message)\n"
                              "\n"
                              "consumer = SimpleConsumer(config, \"MyConsumerGroup\", {\"TopicTest\": FilterExpression(\"TagA\")},\n"
                              "                          await_duration=10)\n"
                              "consumer.startup()\n"
                              "for received in consumer.receive(16, 30):  # up to 16, invisible for 30 s\n"
                              "    consumer.ack(received)\n")
            .arg(address);
    case Node:
    case LanguageCount:
        break;
    }
    return QStringLiteral("// npm install ali-ons@4\n"
                          "const { Producer } = require('ali-ons');\n"
                          "const producer = new Producer({ httpclient: {}, nameSrv: '%1', producerGroup: 'PG' });\n")
        .arg(address);
}

ClientSnippets::ClientSnippets(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("clientSnippetTabs"));
    layout->addWidget(tabs_);
    const QFont mono = fixedPitchFont();
    // Names of languages and frameworks: not translated.
    const std::array<QString, LanguageCount> titles{QStringLiteral("Java"),           QStringLiteral("Spring Boot"),
                                                    QStringLiteral("Go"),             QStringLiteral("Node.js"),
                                                    QStringLiteral("Java 5.x (gRPC)"), QStringLiteral("Node.js 5.x (gRPC)"),
                                                    QStringLiteral("Python 5.x (gRPC)")};
    for (int i = 0; i < LanguageCount; ++i) {
        const auto language = static_cast<Language>(i);
        auto *page = new QWidget(tabs_);
        auto *pageLayout = new QVBoxLayout(page);
        auto *text = new QPlainTextEdit(page);
        text->setObjectName(QStringLiteral("snippet-") + id(language));
        text->setReadOnly(true);
        text->setFont(mono);
        text->setLineWrapMode(QPlainTextEdit::NoWrap);
        text->setTabStopDistance(4 * QFontMetricsF(mono).horizontalAdvance(QLatin1Char(' ')));
        auto *copy = new QPushButton(tr("Copy"), page);
        copy->setObjectName(QStringLiteral("copySnippet-") + id(language));
        connect(copy, &QPushButton::clicked, this,
                [this, language] { QGuiApplication::clipboard()->setText(snippet(language, addressFor(language))); });
        pageLayout->addWidget(text);
        pageLayout->addWidget(copy, 0, Qt::AlignLeft);
        tabs_->addTab(page, titles[i]);
        texts_[i] = text;
        copyButtons_[i] = copy;
    }
    showSnippets();
}

void ClientSnippets::setNamesrvAddress(const QString &namesrvAddr)
{
    namesrvAddr_ = namesrvAddr;
    showSnippets();
}

void ClientSnippets::setGrpcEndpoint(const QString &endpoint)
{
    grpcEndpoint_ = endpoint;
    showSnippets();
}

void ClientSnippets::showSnippets()
{
    for (int i = 0; i < LanguageCount; ++i) {
        const auto language = static_cast<Language>(i);
        const QString address = addressFor(language);
        texts_[i]->setPlainText(address.isEmpty() ? QString() : snippet(language, address));
        if (isGrpc(language))
            tabs_->setTabVisible(i, !address.isEmpty());
    }
}

} // namespace mqdesk::ui
