package mqdesk.interop.harness;

/**
 * One interop scenario: a class in package {@code mqdesk.interop.scenarios} with a public no-argument
 * constructor. {@link Main} runs it by its simple name. A scenario fails by throwing; whatever it
 * starts it registers with {@link Env#closeLater} so that it is closed even then.
 */
public interface Scenario {
    void run(Env env) throws Exception;
}
