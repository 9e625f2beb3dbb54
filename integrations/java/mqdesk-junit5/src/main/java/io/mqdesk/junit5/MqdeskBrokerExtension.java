package io.mqdesk.junit5;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;

/**
 * The JUnit 5 extension behind {@link MqdeskBroker}. Brokers live in the JUnit store of the class or method
 * they belong to, so JUnit stops them (MqdeskServer.stop(), checked) when that class or method is done,
 * whatever the outcome; a broker that does not stop cleanly fails the class or method. Safe under JUnit's
 * parallel execution: every broker picks its own ports.
 */
public final class MqdeskBrokerExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
                                                    ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MqdeskBrokerExtension.class);
    private static final String CLASS_BROKER = "class-broker";
    private static final String METHOD_BROKER = "method-broker";
    // The class-level broker of each running test class, for the Spring integration, which sees the class only.
    private static final Map<Class<?>, MqdeskServer> CLASS_BROKERS = new ConcurrentHashMap<>();

    /**
     * The class whose {@code @MqdeskBroker} serves {@code testClass}: itself, else the nearest enclosing class
     * of a {@code @Nested} one that has it; empty when none has.
     */
    public static Optional<Class<?>> owner(Class<?> testClass) {
        for (Class<?> c = testClass; c != null; c = isInner(c) ? c.getEnclosingClass() : null) {
            if (AnnotationSupport.isAnnotated(c, MqdeskBroker.class))
                return Optional.of(c);
        }
        return Optional.empty();
    }

    /** The broker {@code @MqdeskBroker} started for {@code ownerClass} (per-class lifecycle), while it runs. */
    public static Optional<MqdeskServer> classBroker(Class<?> ownerClass) {
        return Optional.ofNullable(CLASS_BROKERS.get(ownerClass));
    }

    private static boolean isInner(Class<?> c) {
        return c.isMemberClass() && !Modifier.isStatic(c.getModifiers());
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Class<?> testClass = context.getRequiredTestClass();
        Optional<MqdeskBroker> onClass = AnnotationSupport.findAnnotation(testClass, MqdeskBroker.class);
        if (onClass.isPresent() && onClass.get().lifecycle() == MqdeskBroker.Lifecycle.PER_CLASS) {
            MqdeskServer broker = start(onClass.get(), testClass.getName());
            context.getStore(NAMESPACE).put(CLASS_BROKER, new Running(broker, testClass));
            CLASS_BROKERS.put(testClass, broker);
        }
        for (Field field : annotatedFields(testClass, true)) {
            MqdeskServer broker = start(field.getAnnotation(MqdeskBroker.class), describe(field));
            context.getStore(NAMESPACE).put(field, new Running(broker, null));
            field.setAccessible(true);
            field.set(null, broker);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        // The store closes the brokers after this: the registry must not hand out a stopping one.
        CLASS_BROKERS.remove(context.getRequiredTestClass());
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        Class<?> testClass = context.getRequiredTestClass();
        Optional<MqdeskBroker> onClass = AnnotationSupport.findAnnotation(testClass, MqdeskBroker.class);
        if (onClass.isPresent() && onClass.get().lifecycle() == MqdeskBroker.Lifecycle.PER_METHOD) {
            MqdeskServer broker = start(onClass.get(), context.getDisplayName());
            context.getStore(NAMESPACE).put(METHOD_BROKER, new Running(broker, null));
        }
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            for (Field field : annotatedFields(instance.getClass(), false)) {
                MqdeskServer broker = start(field.getAnnotation(MqdeskBroker.class), describe(field));
                context.getStore(NAMESPACE).put(field, new Running(broker, null));
                field.setAccessible(true);
                field.set(instance, broker);
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MqdeskServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // The nearest: this method's broker, else its class's, else an enclosing class's (@Nested): a
        // store answers from its parents' when it has no value of its own.
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        for (String key : List.of(METHOD_BROKER, CLASS_BROKER)) {
            Running running = store.get(key, Running.class);
            if (running != null)
                return running.broker;
        }
        throw new ParameterResolutionException(
            "no broker for parameter " + parameter.getParameter() + ": put @MqdeskBroker on the test class (a "
            + "per-class broker is not started yet when a @TestInstance(PER_CLASS) constructor runs)");
    }

    static MqdeskServer.Builder builderFor(MqdeskBroker settings) {
        MqdeskServer.Builder builder = MqdeskServer.builder().topic(settings.topics()).group(settings.groups());
        if (settings.syncFlush())
            builder.syncFlush();
        if (!settings.autoCreateTopics())
            builder.autoCreateTopics(false);
        if (!settings.aclUser().isEmpty()) {
            int colon = settings.aclUser().indexOf(':');
            if (colon <= 0)
                throw new ExtensionConfigurationException("@MqdeskBroker(aclUser = \"" + settings.aclUser()
                                                          + "\"): expected \"user:password\"");
            builder.aclUser(settings.aclUser().substring(0, colon), settings.aclUser().substring(colon + 1));
        }
        return builder.config(settings.config());
    }

    private static MqdeskServer start(MqdeskBroker settings, String forWhat) throws IOException {
        try {
            return builderFor(settings).start();
        } catch (IOException e) {
            throw new IOException("@MqdeskBroker for " + forWhat + ": " + e.getMessage(), e);
        }
    }

    private static List<Field> annotatedFields(Class<?> type, boolean statics) {
        List<Field> fields = new ArrayList<>();
        for (Field field : AnnotationSupport.findAnnotatedFields(type, MqdeskBroker.class, f -> true,
                                                                 HierarchyTraversalMode.TOP_DOWN)) {
            if (Modifier.isStatic(field.getModifiers()) != statics)
                continue;
            if (field.getType() != MqdeskServer.class)
                throw new ExtensionConfigurationException("@MqdeskBroker field " + describe(field)
                                                          + " must be of type MqdeskServer");
            fields.add(field);
        }
        return fields;
    }

    private static String describe(Field field) {
        return field.getDeclaringClass().getName() + "." + field.getName();
    }

    /**
     * A broker in a JUnit store: closed (stopped, checked) when its class or method is done. JUnit 5.13 and
     * later close AutoCloseable values and deprecate CloseableResource, which earlier versions need: it is
     * both, and closing it twice stops the broker once.
     */
    private static final class Running implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final MqdeskServer broker;
        final Class<?> registeredFor;

        Running(MqdeskServer broker, Class<?> registeredFor) {
            this.broker = broker;
            this.registeredFor = registeredFor;
        }

        @Override
        public void close() throws IOException {
            if (registeredFor != null)
                CLASS_BROKERS.remove(registeredFor, broker);
            broker.stop();
        }
    }
}
