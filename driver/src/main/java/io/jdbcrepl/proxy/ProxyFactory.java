package io.jdbcrepl.proxy;

import io.jdbcrepl.intercept.ConnectionInterceptor;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.Setter;
import io.jdbcrepl.intercept.StandbyInterceptor;
import io.jdbcrepl.intercept.StatementInterceptor;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.modifier.TypeManifestation;
import net.bytebuddy.description.modifier.Visibility;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.dynamic.scaffold.subclass.ConstructorStrategy;
import net.bytebuddy.implementation.MethodCall;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

/**
 * Creates the proxies. Each proxy class is generated from its hand-written base class, at build
 * time by {@link ProxyClassWriter}: every interface method the base does not implement forwards to
 * the base's delegate field. The classes live next to their bases (same package, same class
 * loader), so nothing is generated per vendor class and nothing leaks across class loaders.
 */
public final class ProxyFactory {

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    private ProxyFactory() {
    }

    /**
     * Wraps a real connection. {@code interceptor} null means pure pass-through; {@code extension}
     * is an object the application can reach with {@code unwrap} (null for none).
     */
    public static Connection wrap(Connection delegate, ConnectionInterceptor interceptor, Object extension,
            String label) {
        return connection(delegate, interceptor, null, extension, label);
    }

    /** Wraps a real connection that is a pure pass-through until a statement needs {@code standby}. */
    public static Connection wrapOnDemand(Connection delegate, StandbyInterceptor standby, Object extension, String label) {
        return connection(delegate, null, standby, extension, label);
    }

    private static Connection connection(Connection delegate, ConnectionInterceptor interceptor,
            StandbyInterceptor standby, Object extension, String label) {
        try {
            return (ConnectionProxy) Classes.CONNECTION.invokeExact(delegate, interceptor, standby, extension, label);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static Statement statement(ConnectionProxy connection, Statement delegate) {
        try {
            return (StatementProxy) Classes.STATEMENT.invokeExact(connection, delegate);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static PreparedStatement prepared(ConnectionProxy connection, PreparedStatement delegate, String sql,
            StatementInterceptor interceptor, GeneratedKeys keys) {
        try {
            return needsParameters(interceptor)
                    ? (PreparedStatementProxy) Classes.RECORDING_PREPARED.invokeExact(connection, delegate, sql, interceptor, keys)
                    : (PreparedStatementProxy) Classes.PREPARED.invokeExact(connection, delegate, sql, interceptor, keys);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static CallableStatement callable(ConnectionProxy connection, CallableStatement delegate, String sql,
            StatementInterceptor interceptor) {
        try {
            return needsParameters(interceptor)
                    ? (CallableStatementProxy) Classes.RECORDING_CALLABLE.invokeExact(connection, delegate, sql, interceptor)
                    : (CallableStatementProxy) Classes.CALLABLE.invokeExact(connection, delegate, sql, interceptor);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static ResultSet resultSet(StatementProxy statement, ResultSet delegate) {
        try {
            return (ResultSetProxy) Classes.RESULT_SET.invokeExact(statement, delegate);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static DatabaseMetaData metaData(ConnectionProxy connection, DatabaseMetaData delegate) {
        try {
            return (DatabaseMetaDataProxy) Classes.META_DATA.invokeExact(connection, delegate);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static boolean needsParameters(StatementInterceptor interceptor) {
        return interceptor != null && interceptor.needsParameters();
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException("Could not create a JDBC proxy", t);
    }

    /** The generated classes' constructors, made once when first needed (class-init is thread-safe). */
    private static final class Classes {
        static final MethodHandle CONNECTION = constructor(ConnectionProxy.class, false,
                Connection.class, ConnectionInterceptor.class, StandbyInterceptor.class, Object.class, String.class);
        static final MethodHandle STATEMENT = constructor(StatementProxy.class, false,
                ConnectionProxy.class, Statement.class);
        static final MethodHandle PREPARED = constructor(PreparedStatementProxy.class, false,
                ConnectionProxy.class, PreparedStatement.class, String.class, StatementInterceptor.class,
                GeneratedKeys.class);
        static final MethodHandle RECORDING_PREPARED = constructor(PreparedStatementProxy.class, true,
                ConnectionProxy.class, PreparedStatement.class, String.class, StatementInterceptor.class,
                GeneratedKeys.class);
        static final MethodHandle CALLABLE = constructor(CallableStatementProxy.class, false,
                ConnectionProxy.class, CallableStatement.class, String.class, StatementInterceptor.class);
        static final MethodHandle RECORDING_CALLABLE = constructor(CallableStatementProxy.class, true,
                ConnectionProxy.class, CallableStatement.class, String.class, StatementInterceptor.class);
        static final MethodHandle RESULT_SET = constructor(ResultSetProxy.class, false,
                StatementProxy.class, ResultSet.class);
        static final MethodHandle META_DATA = constructor(DatabaseMetaDataProxy.class, false,
                ConnectionProxy.class, DatabaseMetaData.class);
    }

    private static MethodHandle constructor(Class<?> base, boolean recording, Class<?>... parameters) {
        try {
            Class<?> generated = proxyClass(base, recording);
            MethodHandle handle = LOOKUP.findConstructor(generated, MethodType.methodType(void.class, parameters));
            return handle.asType(handle.type().changeReturnType(base));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Could not generate the proxy for " + base.getName(), e);
        }
    }

    /**
     * The class {@link ProxyClassWriter} wrote at build time; generated now only when the build did
     * not write it (a compile outside Maven), since generating loads some 900 classes of Byte Buddy
     * and made the first connect of a JVM 0.4 s slower.
     */
    private static Class<?> proxyClass(Class<?> base, boolean recording) {
        try {
            return Class.forName(proxyClassName(base, recording), true, base.getClassLoader());
        } catch (ClassNotFoundException notWritten) {
            try (DynamicType.Unloaded<?> unloaded = generate(base, recording)) {
                return unloaded.load(base.getClassLoader(), ClassLoadingStrategy.UsingLookup.of(LOOKUP)).getLoaded();
            }
        }
    }

    static String proxyClassName(Class<?> base, boolean recording) {
        return base.getName() + (recording ? "$Recording" : "$Forwarding");
    }

    /** Generates the final forwarding subclass of {@code base}. */
    static DynamicType.Unloaded<?> generate(Class<?> base, boolean recording) {
        DynamicType.Builder<?> builder = new ByteBuddy()
                .with(SortedMethodGraph.COMPILER) // the same bytes from every build
                .subclass(base, ConstructorStrategy.Default.IMITATE_SUPER_CLASS_OPENING)
                .name(proxyClassName(base, recording))
                .modifiers(Visibility.PUBLIC, TypeManifestation.FINAL)
                // Every interface method the base leaves alone, default methods included
                // (matching only abstract ones would drop JDBC 4.2's executeLargeUpdate & co).
                .method(isDeclaredBy(isInterface())).intercept(forwardCall("delegate"));
        if (PreparedStatement.class.isAssignableFrom(base)) {
            builder = builder.method(isDeclaredBy(PreparedStatement.class)).intercept(forwardCall("psDelegate"));
        }
        if (CallableStatement.class.isAssignableFrom(base)) {
            builder = builder.method(isDeclaredBy(CallableStatement.class)).intercept(forwardCall("csDelegate"));
        }
        if (base == DatabaseMetaDataProxy.class) {
            builder = builder.method(isDeclaredBy(isInterface()).and(returns(ResultSet.class)))
                    .intercept(MethodCall.invoke(named("wrapResult").and(isDeclaredBy(DatabaseMetaDataProxy.class)))
                            .withMethodCall(forwardCall("delegate")));
        }
        if (recording) {
            builder = builder
                    .method(isDeclaredBy(PreparedStatement.class).and(nameStartsWith("set"))
                            .and(takesArgument(0, int.class)))
                    .intercept(Advice.withCustomMapping()
                            .bind(RecordParameter.SetterOfMethod.class, RecordParameter.SETTER_OF_METHOD)
                            .to(RecordParameter.class).wrap(forwardCall("psDelegate")));
        }
        return builder.make();
    }

    private static MethodCall forwardCall(String field) {
        return MethodCall.invokeSelf().onField(field).withAllArguments();
    }

    /**
     * Records a parameter setter once the real driver accepted it. Inlined into the generated class,
     * where the {@link Setter} is a constant of each method: nothing looks it up per call.
     */
    static final class RecordParameter {
        private RecordParameter() {
        }

        /** Binds the {@link Setter} of the method the advice is inlined into. */
        @Retention(RetentionPolicy.RUNTIME)
        @Target(ElementType.PARAMETER)
        @interface SetterOfMethod {
        }

        static final Advice.OffsetMapping SETTER_OF_METHOD = (type, method, assigner, arguments, sort) ->
                Advice.OffsetMapping.Target.ForStackManipulation.of(Setter.named(method.getName()));

        @Advice.OnMethodExit
        static void exit(@Advice.This PreparedStatementProxy self, @SetterOfMethod Setter setter,
                @Advice.AllArguments Object[] arguments) {
            self.recordParameter(setter, arguments);
        }
    }
}
