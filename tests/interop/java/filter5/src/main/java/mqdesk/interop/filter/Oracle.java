package mqdesk.interop.filter;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.rocketmq.filter.expression.BooleanExpression;
import org.apache.rocketmq.filter.expression.EvaluationContext;
import org.apache.rocketmq.filter.parser.SelectorParser;

/**
 * Reads lines "expression TAB name=value;name=value" (a newline inside the expression written as
 * the two characters \n) from stdin and prints, per line, what RocketMQ's broker-side filter makes
 * of them: compile (SelectorParser.parse refuses it), error (evaluation throws: not delivered),
 * unknown (null), true or false.
 */
public final class Oracle {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        for (String line; (line = in.readLine()) != null; ) {
            int tab = line.indexOf('\t');
            String sql = line.substring(0, tab).replace("\\n", "\n");
            Map<String, Object> properties = new HashMap<>();
            for (String pair : line.substring(tab + 1).split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0)
                    properties.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
            out.println(outcome(sql, properties));
        }
        out.flush();
    }

    private static String outcome(String sql, Map<String, Object> properties) {
        BooleanExpression expression;
        try {
            expression = SelectorParser.parse(sql);
        } catch (Throwable t) {
            return "compile";
        }
        try {
            Object value = expression.evaluate(new EvaluationContext() {
                @Override
                public Object get(String name) { return properties.get(name); }

                @Override
                public Map<String, Object> keyValues() { return properties; }
            });
            if (value == null)
                return "unknown";
            return value instanceof Boolean ? value.toString() : "non-boolean";
        } catch (Throwable t) {
            return "error";
        }
    }
}
