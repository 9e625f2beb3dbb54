// The SQL92 filter's grammar and evaluation semantics against what RocketMQ's Java filter module
// answers for the same expression and properties: true, false, unknown (NULL), or an evaluation
// error (a Java exception: the broker then does not deliver the message).

#include "test_support.h"

#include "filter_test_util.h"

#include <atomic>
#include <thread>
#include <vector>

using mqdesk::test::outcome;

class SqlFilterTest : public QObject
{
    Q_OBJECT

private slots:
    void semantics_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char *sql, const char *properties, const char *expected) {
            QTest::addRow("%s | %s", sql, properties) << QString::fromUtf8(sql) << QString::fromUtf8(properties)
                                                     << QString::fromUtf8(expected);
        };
        // numeric vs string comparison: the property converts to the literal's class
        row("a = 1", "a=1", "true");
        row("a = 1", "a=2", "false");
        row("a = 1", "", "unknown");
        row("a = 1", "a=1.0", "error");           // Integer.valueOf("1.0") throws
        row("a = 1.0", "a=1", "true");            // Double.valueOf("1")
        row("a = 1L", "a=1", "true");
        row("a = 3000000000", "a=3000000000", "true"); // a Long literal
        row("a = 1", "a=3000000000", "error");    // past an Integer
        row("a = -1", "a=-1", "true");
        row("a = +1", "a=+1", "true");
        row("a = 'x'", "a=x", "true");
        row("a = 'x'", "a=y", "false");
        row("a <> 'x'", "a=y", "true");
        row("a <> 'x'", "a=x", "false");
        row("a <> 'x'", "", "unknown");
        row("a = 'it''s'", "a=it's", "true");
        row("a = b", "a=10;b=10.0", "false"); // two strings compare as strings for =
        row("a = b", "a=p;b=p", "true");
        row("a > 3", "a=10", "true");         // numerically, not "10" < "3"
        row("a > 3", "a=2", "false");
        row("a > 3", "a=3", "false");
        row("a >= 3", "a=3", "true");
        row("a < 3", "a=-7", "true");
        row("a <= 3", "a=4", "false");
        row("a > 3", "a=abc", "error");
        row("a > 3", "a=3.5", "error");       // Integer.valueOf("3.5") throws
        row("a > 3.0", "a=3.5", "true");
        row("a > 1E1", "a=11", "true");
        row("a < .5", "a=0.25", "true");
        row("a > 3", "", "unknown");
        row("a > b", "a=10;b=9", "true");     // two strings as doubles for > >= < <=
        row("a > b", "a=x;b=9", "error");
        row("a = TRUE", "a=TRUE", "true");    // Boolean.valueOf, case-insensitive
        row("a = TRUE", "a=yes", "false");
        row("a = FALSE", "a=xyz", "true");
        row("1 = 1", "", "true");
        row("2 = 2.0", "", "true");
        row("1 < 2", "", "true");
        row("'a' = 'a'", "", "true");
        // BETWEEN
        row("a BETWEEN 0 AND 3", "a=0", "true");
        row("a BETWEEN 0 AND 3", "a=3", "true");
        row("a BETWEEN 0 AND 3", "a=4", "false");
        row("a BETWEEN 0 AND 3", "a=-1", "false");
        row("a BETWEEN 0 AND 3", "", "unknown");
        row("a BETWEEN 1 AND 1", "a=1", "true");
        row("a BETWEEN -5 AND -1", "a=-3", "true");
        row("a BETWEEN 1.5 AND 2.5", "a=2", "true");
        row("a NOT BETWEEN 0 AND 3", "a=4", "true");
        row("a NOT BETWEEN 0 AND 3", "a=2", "false");
        row("a NOT BETWEEN 0 AND 3", "", "unknown");
        row("a BETWEEN 0 AND 3 AND b = 'x'", "a=2;b=x", "true");
        row("a BETWEEN 0 AND 3 AND b = 'x'", "a=2;b=y", "false");
        // IN
        row("a IN ('x', 'y')", "a=y", "true");
        row("a IN ('x', 'y')", "a=z", "false");
        row("a IN ('x', 'y')", "", "unknown");
        row("a IN ('1','2','3','4','5','6')", "a=6", "true");
        row("a NOT IN ('x', 'y')", "a=z", "true");
        row("a NOT IN ('x', 'y')", "a=x", "false");
        row("a NOT IN ('x', 'y')", "", "unknown");
        // NULL
        row("a IS NULL", "", "true");
        row("a IS NULL", "a=1", "false");
        row("a IS NOT NULL", "a=1", "true");
        row("a IS NOT NULL", "", "false");
        row("a IS NULL OR a = 1", "", "true");
        row("NULL", "", "unknown");
        row("TRUE", "", "true");
        row("FALSE", "", "false");
        // three-valued logic
        row("a = 1 OR b = 2", "b=2", "true");
        row("a = 1 OR b = 2", "b=3", "unknown");
        row("a = 1 AND b = 2", "b=3", "false");
        row("a = 1 AND b = 2", "b=2", "unknown");
        row("NOT (a = 1)", "a=2", "true");
        row("NOT (a = 1)", "", "unknown");
        row("NOT (a IS NULL)", "", "false");
        row("NOT NOT (a = 1)", "a=1", "true");
        // an error ends the evaluation where Java's exception would
        row("a = 1 OR a = 'x'", "a=x", "error");
        row("TRUE OR a > 3", "a=abc", "true");
        row("a > 3 OR TRUE", "a=abc", "error");
        row("FALSE AND a > 3", "a=abc", "false");
        // precedence: NOT binds to the next operand, AND before OR, parentheses
        row("NOT a = 1", "a=2", "false"); // (NOT a) = 1: NOT of a string property is TRUE, TRUE = 1 is false
        row("NOT a = 1", "", "unknown");
        row("a = 1 OR b = 2 AND c = 3", "a=1;b=0", "true");
        row("(a = 1 OR b = 2) AND c = 3", "a=1;c=0", "false");
        row("a = 'x' AND b > 2 OR c IN ('p', 'q')", "c=q", "true");
        row("a = 'x' AND (b > 2 OR c IN ('p', 'q'))", "a=x;c=r", "unknown");
        // a bare property as a condition
        row("a", "a=true", "false");
        row("a", "", "unknown");
        row("NOT a", "a=1", "true");
        // negation of a non-number is unknown
        row("-a = -1", "a=1", "unknown");
        // TAGS is a property like the others
        row("TAGS = 'tagA'", "TAGS=tagA", "true");
        row("TAGS IN ('tagA', 'tagB') AND KEYS IS NOT NULL", "TAGS=tagB;KEYS=k1", "true");
        // CONTAINS / STARTSWITH / ENDSWITH (5.x)
        row("a CONTAINS 'bc'", "a=abcd", "true");
        row("a CONTAINS 'bc'", "a=xyz", "false");
        row("a CONTAINS 'bc'", "", "false");
        row("a CONTAINS ''", "a=abc", "false");
        row("a NOT CONTAINS 'zz'", "a=abc", "true");
        row("a NOT CONTAINS 'bc'", "a=abc", "false");
        row("a NOT CONTAINS 'bc'", "", "false");
        row("a NOT CONTAINS ''", "a=abc", "false");
        row("a STARTSWITH 'ab'", "a=abc", "true");
        row("a STARTSWITH 'bc'", "a=abc", "false");
        row("a NOT STARTSWITH 'b'", "a=abc", "true");
        row("a ENDSWITH 'bc'", "a=abc", "true");
        row("a NOT ENDSWITH 'c'", "a=abc", "false");
        row("a ENDSWITH 'c'", "", "false");
        row("NOT (a CONTAINS 'x')", "", "true");
        // keywords in any case, comments, white space
        row("a between 1 and 3 and b in ('x') and c is not null", "a=2;b=x;c=1", "true");
        row("a Not Between 1 And 3 oR B contains 'q'", "a=2;B=aqa", "true");
        row("a = 1 /* a comment */ AND b = 2", "a=1;b=2", "true");
        row("a = 1 -- a comment\n AND b = 2", "a=1;b=2", "true");
        row("\ta\r\n=\f1", "a=1", "true");
        row("$a_1 = 1", "$a_1=1", "true");
        row("a = 'é'", "a=é", "true");
    }

    void semantics()
    {
        QFETCH(QString, sql);
        QFETCH(QString, properties);
        QFETCH(QString, expected);
        const std::string got = outcome(sql.toStdString(), properties.toStdString());
        QCOMPARE(QString::fromStdString(got), expected);
    }

    void matchesOnlyTrue()
    {
        using mqdesk::test::MapContext;
        const auto compiled = mqdesk::filter::compileSql("a = 1 OR b = 2");
        QVERIFY(compiled.ok());
        QVERIFY(compiled.expression->matches(MapContext("a=1")));
        QVERIFY(!compiled.expression->matches(MapContext("a=2")));  // false
        QVERIFY(!compiled.expression->matches(MapContext("")));     // unknown
        QVERIFY(!compiled.expression->matches(MapContext("a=x")));  // error
        QCOMPARE(QString::fromStdString(compiled.expression->text()), QStringLiteral("a = 1 OR b = 2"));
    }

    void concurrentEvaluation()
    {
        // One compiled expression shared by threads (the broker's cache hands it to every pull).
        const auto compiled = mqdesk::filter::compileSql("a BETWEEN 0 AND 3 AND b IN ('x', 'y')");
        QVERIFY(compiled.ok());
        std::atomic<int> matched{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 2000; ++i)
                    if (compiled.expression->matches(mqdesk::test::MapContext("a=" + std::to_string(i % 6) + ";b=x")))
                        ++matched;
            });
        for (auto &thread : threads)
            thread.join();
        QCOMPARE(matched.load(), 4 * (2000 / 6 * 4 + 2000 % 6));
    }
};

QObject *createSqlFilterTest() { return new SqlFilterTest; }

#include "tst_sql_filter.moc"
