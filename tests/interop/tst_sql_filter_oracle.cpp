// MQDesk's SQL92 filter against RocketMQ's own (rocketmq-filter 5.x, tests/interop/java/filter5)
// on the same inputs: random expressions from the grammar (valid and broken, with Java's number,
// string and NULL corners) and random character soup, each evaluated over random properties. Both
// sides must agree on every input: refused, evaluation error, unknown, true or false.

#include "test_support.h"

#include "broker/common/filter/filter_test_util.h"

#include <QProcess>

#include <map>

#include <random>

namespace {

class Generator
{
public:
    explicit Generator(uint32_t seed) : random_(seed) {}

    // "expression \t properties", a newline in the expression written as \n.
    std::string grammarCase()
    {
        std::string sql = expr(0);
        if (chance(0.03))
            sql += pick({")", " #", " x", " = ", " NOT", "'"});
        return escape(sql) + "\t" + properties();
    }

    std::string soupCase()
    {
        static const std::vector<std::string> alphabet = {
            "a", "b", " ", "1", "2", "0", "9", ".", "e", "E", "+", "-", "'", "(", ")", "=", "<", ">", ",", "/", "*",
            "\n", "L", "l", "f", "d", "x", "AND ", "OR ", "NOT ", "IN ", "IS ", "NULL ", "BETWEEN ", "TRUE", " = ",
            "'x'", "--", "/*", "*/"};
        std::string sql;
        const int length = 1 + static_cast<int>(random_() % 14);
        for (int i = 0; i < length; ++i)
            sql += alphabet[random_() % alphabet.size()];
        return escape(sql) + "\t" + properties();
    }

private:
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(random_) < p; }
    std::string pick(std::initializer_list<const char *> options)
    {
        return *(options.begin() + random_() % options.size());
    }

    std::string properties()
    {
        static const char *values[] = {"1", "2", "-3", "3.5", "abc", "true", "TRUE", " 5", "1e3", "NaN", "Infinity",
                                       "3000000000", "+4", "1.0", "x", "y", "0", "-0", "1f", "2d", "007",
                                       "9223372036854775807", "9223372036854775808", ".5", "5.", "1E400"};
        std::string out;
        for (const char *name : {"a", "b", "c", "TAGS"}) {
            if (!chance(0.6))
                continue;
            out += (out.empty() ? "" : ";") + std::string(name) + "=" + values[random_() % std::size(values)];
        }
        return out;
    }

    std::string operand(int depth)
    {
        const double r = std::uniform_real_distribution<double>(0, 1)(random_);
        if (r < 0.45)
            return pick({"a", "b", "c", "TAGS"});
        if (r < 0.8)
            return pick({"1", "2", "0", "3000000000", "2147483647", "2147483648", "1L", "1.5", "2.", ".5", "1E2", "1e-3",
                         "'x'", "'y'", "'1'", "'abc'", "''''", "TRUE", "FALSE", "NULL", "9223372036854775807", "1E400",
                         "0.0", "00"});
        if (r < 0.9 && depth < 4)
            return "-" + operand(depth + 1);
        if (depth < 4)
            return "(" + expr(depth + 1) + ")";
        return "a";
    }

    std::string condition(int depth)
    {
        const std::string left = operand(depth);
        const double r = std::uniform_real_distribution<double>(0, 1)(random_);
        if (r < 0.25)
            return left + " " + pick({"=", "<>", ">", ">=", "<", "<="}) + " " + operand(depth);
        if (r < 0.35)
            return left + pick({" BETWEEN ", " NOT BETWEEN "}) + operand(depth) + " AND " + operand(depth);
        if (r < 0.45) {
            std::string list = pick({"'x'", "'1'", "'abc'", "'y'", "1"});
            for (int n = static_cast<int>(random_() % 3); n > 0; --n)
                list += std::string(", ") + pick({"'x'", "'1'", "'abc'", "'y'"});
            return left + pick({" IN (", " NOT IN ("}) + list + ")";
        }
        if (r < 0.55)
            return left + pick({" IS NULL", " IS NOT NULL"});
        if (r < 0.65)
            return left + " " + pick({"CONTAINS", "NOT CONTAINS", "STARTSWITH", "NOT STARTSWITH", "ENDSWITH", "NOT ENDSWITH"})
                   + " " + pick({"'x'", "'a'", "''", "'1'", "b"});
        if (r < 0.7)
            return "NOT " + condition(depth);
        if (r < 0.75)
            return left;
        return left + " " + pick({"=", ">", "<>"}) + " " + operand(depth);
    }

    std::string expr(int depth)
    {
        std::string out = condition(depth);
        while (depth < 4 && chance(0.4))
            out += pick({" AND ", " OR "}) + condition(depth + 1);
        return out;
    }

    static std::string escape(const std::string &sql)
    {
        std::string out;
        for (char c : sql)
            out += c == '\n' ? std::string("\\n") : std::string(1, c);
        return out;
    }

    std::mt19937 random_;
};

std::string mqdeskOutcome(const std::string &line)
{
    const size_t tab = line.find('\t');
    std::string sql = line.substr(0, tab);
    for (size_t at; (at = sql.find("\\n")) != std::string::npos;)
        sql.replace(at, 2, "\n");
    const std::string outcome = mqdesk::test::outcome(sql, line.substr(tab + 1));
    return outcome.starts_with("compile") ? "compile" : outcome;
}

} // namespace

class SqlFilterOracleTest : public QObject
{
    Q_OBJECT

private slots:
    void agreesWithRocketMQ()
    {
        const QString javaDir = QStringLiteral(MQDESK_INTEROP_JAVA_DIR);
        QFile classpathFile(javaDir + QStringLiteral("/filter5/target/classpath.txt"));
        QVERIFY2(classpathFile.open(QIODevice::ReadOnly),
                 "filter5 is not built: mvn -B -q -f tests/interop/java/pom.xml package (interop_java_build)");
        const QString classpath = javaDir + QStringLiteral("/filter5/target/classes:")
                                  + QString::fromUtf8(classpathFile.readAll()).trimmed();

        std::vector<std::string> cases = {
            // hand-picked corners
            "a = 1)\ta=1", "a = 007\ta=0", "a = 1 --x\ta=1", "a = 'it''\ta=it", "(a = 1) ''x'\ta=1", "NULL 'x''\ta=1",
            "a > 3\ta=3.5", "a = 1\ta=3000000000", "a = TRUE\ta=yes", "a = FALSE\ta=xyz", "NOT a = 1\ta=2",
            "a BETWEEN 5 AND -1\ta=2", "a > 0.0\ta=1", "a CONTAINS ''\ta=abc", "TRUE = a\ta=true", "-a = -1\ta=1",
        };
        Generator grammar(20261202);
        for (int i = 0; i < 40000; ++i)
            cases.push_back(grammar.grammarCase());
        Generator soup(7);
        for (int i = 0; i < 40000; ++i)
            cases.push_back(soup.soupCase());

        QByteArray input;
        for (const std::string &line : cases)
            input += QByteArray::fromStdString(line) + '\n';
        QProcess java;
        java.start(QStringLiteral(MQDESK_JAVA_EXECUTABLE),
                   {QStringLiteral("-Xmx256m"), QStringLiteral("-XX:+UseSerialGC"), QStringLiteral("-cp"), classpath,
                    QStringLiteral("mqdesk.interop.filter.Oracle")});
        QVERIFY2(java.waitForStarted(30000), qPrintable(java.errorString()));
        java.write(input);
        java.closeWriteChannel();
        QVERIFY2(java.waitForFinished(180000), "the Java oracle did not finish within 180 s");
        QCOMPARE(java.exitCode(), 0);
        const QList<QByteArray> answers = java.readAllStandardOutput().split('\n');
        QVERIFY2(answers.size() >= static_cast<qsizetype>(cases.size()),
                 qPrintable(QString::fromUtf8(java.readAllStandardError())));

        int differences = 0;
        std::map<std::string, int> tally;
        for (size_t i = 0; i < cases.size(); ++i) {
            const std::string theirs = answers[static_cast<qsizetype>(i)].toStdString();
            const std::string ours = mqdeskOutcome(cases[i]);
            ++tally[theirs];
            if (theirs != ours && ++differences <= 20)
                qWarning("differs: [%s] rocketmq=%s mqdesk=%s", cases[i].c_str(), theirs.c_str(), ours.c_str());
        }
        for (const auto &[outcome, count] : tally)
            qInfo("%s: %d", outcome.c_str(), count);
        QCOMPARE(differences, 0);
    }
};

QObject *createSqlFilterOracleTest() { return new SqlFilterOracleTest; }

MQDESK_TEST_MAIN(createSqlFilterOracleTest())

#include "tst_sql_filter_oracle.moc"
