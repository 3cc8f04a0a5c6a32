package io.jdbcrepl.proxy;

import io.jdbcrepl.intercept.GeneratedKeys;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every method of the proxied interfaces, found by reflection, reaches the real driver's object
 * with the same arguments: a method the generator missed, JDBC 4.2 default methods included,
 * fails here.
 */
class ForwardingTest {

    /** Wrapper methods answer from the proxy itself when the proxy or its delegate fits. */
    private static final Set<String> NOT_FORWARDED = Set.of("unwrap", "isWrapperFor");

    @TestFactory
    Stream<DynamicTest> connectionMethodsAreForwarded() {
        return forwardingTests(Connection.class, stub -> ProxyFactory.wrap(stub.create(Connection.class), null, null, "t"));
    }

    @TestFactory
    Stream<DynamicTest> statementMethodsAreForwarded() {
        return forwardingTests(Statement.class, stub -> ProxyFactory.statement(connection(), stub.create(Statement.class)));
    }

    @TestFactory
    Stream<DynamicTest> preparedStatementMethodsAreForwarded() {
        return forwardingTests(PreparedStatement.class, stub -> ProxyFactory.prepared(connection(),
                stub.create(PreparedStatement.class), "select 1", null, GeneratedKeys.NONE));
    }

    @TestFactory
    Stream<DynamicTest> recordingPreparedStatementMethodsAreForwarded() {
        return forwardingTests(PreparedStatement.class, stub -> ProxyFactory.prepared(connection(),
                stub.create(PreparedStatement.class), "select 1", new NeedsParameters(), GeneratedKeys.NONE));
    }

    @TestFactory
    Stream<DynamicTest> callableStatementMethodsAreForwarded() {
        return forwardingTests(CallableStatement.class, stub -> ProxyFactory.callable(connection(),
                stub.create(CallableStatement.class), "{call p()}", null));
    }

    @TestFactory
    Stream<DynamicTest> resultSetMethodsAreForwarded() {
        return forwardingTests(ResultSet.class, stub -> ProxyFactory.resultSet(
                (StatementProxy) ProxyFactory.statement(connection(), new RecordingStub().create(Statement.class)),
                stub.create(ResultSet.class)));
    }

    @TestFactory
    Stream<DynamicTest> metaDataMethodsAreForwarded() {
        return forwardingTests(DatabaseMetaData.class, stub -> ProxyFactory.metaData(connection(),
                stub.create(DatabaseMetaData.class)));
    }

    @Test
    void oneGeneratedClassPerInterfaceWhateverTheVendorClass() {
        Connection a = ProxyFactory.wrap(new RecordingStub().create(Connection.class), null, null, "a");
        Connection b = ProxyFactory.wrap(new RecordingStub().create(Connection.class), null, null, "b");
        assertThat(a.getClass()).isSameAs(b.getClass());
        assertThat(a.getClass().getName()).isEqualTo(ConnectionProxy.class.getName() + "$Forwarding");
        assertThat(Modifier.isFinal(a.getClass().getModifiers())).isTrue();
    }

    @Test
    void generatedClassesImplementEveryInterfaceMethod() {
        ConnectionProxy c = connection();
        StatementProxy s = (StatementProxy) ProxyFactory.statement(c, new RecordingStub().create(Statement.class));
        List<Object> proxies = List.of(c, s,
                ProxyFactory.prepared(c, new RecordingStub().create(PreparedStatement.class), "x", null, GeneratedKeys.NONE),
                ProxyFactory.prepared(c, new RecordingStub().create(PreparedStatement.class), "x",
                        new NeedsParameters(), GeneratedKeys.NONE),
                ProxyFactory.callable(c, new RecordingStub().create(CallableStatement.class), "x", null),
                ProxyFactory.callable(c, new RecordingStub().create(CallableStatement.class), "x", new NeedsParameters()),
                ProxyFactory.resultSet(s, new RecordingStub().create(ResultSet.class)),
                ProxyFactory.metaData(c, new RecordingStub().create(DatabaseMetaData.class)));
        for (Object proxy : proxies) {
            for (Method m : proxy.getClass().getMethods()) {
                assertThat(Modifier.isAbstract(m.getModifiers())).as(proxy.getClass().getSimpleName() + "." + m).isFalse();
            }
        }
        assertThat(proxies).extracting(p -> p.getClass().getName()).doesNotHaveDuplicates();
    }

    private static ConnectionProxy connection() {
        return (ConnectionProxy) ProxyFactory.wrap(new RecordingStub().create(Connection.class), null, null, "t");
    }

    private static Stream<DynamicTest> forwardingTests(Class<?> type, Function<RecordingStub, Object> proxyOf) {
        List<DynamicTest> tests = new ArrayList<>();
        for (Method method : type.getMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || NOT_FORWARDED.contains(method.getName())) continue;
            tests.add(DynamicTest.dynamicTest(type.getSimpleName() + "." + signature(method), () -> {
                RecordingStub stub = new RecordingStub();
                Object proxy = proxyOf.apply(stub);
                Object[] args = arguments(method);
                try {
                    method.invoke(proxy, args);
                } catch (InvocationTargetException e) {
                    throw new AssertionError(signature(method) + " threw", e.getCause());
                }
                assertThat(stub.calls).as(signature(method) + " reaches the delegate")
                        .anySatisfy(call -> {
                            assertThat(call.method().getName()).isEqualTo(method.getName());
                            assertThat(call.method().getParameterTypes()).isEqualTo(method.getParameterTypes());
                            assertThat(call.args()).isEqualTo(args);
                        });
            }));
        }
        return tests.stream();
    }

    private static String signature(Method m) {
        return m.getName() + Arrays.toString(Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toArray());
    }

    /** Distinct, recognisable arguments so that a forward to the wrong overload or order is seen. */
    private static Object[] arguments(Method method) {
        Class<?>[] types = method.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            Class<?> t = types[i];
            if (t == int.class) args[i] = 7 + i;
            else if (t == long.class) args[i] = 70L + i;
            else if (t == boolean.class) args[i] = true;
            else if (t == short.class) args[i] = (short) (3 + i);
            else if (t == byte.class) args[i] = (byte) (2 + i);
            else if (t == float.class) args[i] = 1.5f + i;
            else if (t == double.class) args[i] = 2.5d + i;
            else if (t == String.class) args[i] = "s" + i;
            else if (t == int[].class) args[i] = new int[] {1, 2};
            else if (t == String[].class) args[i] = new String[] {"a", "b"};
            else if (t == Class.class) args[i] = String.class;
            else args[i] = null;
        }
        return args;
    }

    /** An interceptor that asks for parameters and otherwise proceeds. */
    private static final class NeedsParameters implements io.jdbcrepl.intercept.StatementInterceptor {
        @Override
        public boolean needsParameters() {
            return true;
        }

        @Override
        public Object execute(io.jdbcrepl.intercept.Execution execution) throws java.sql.SQLException {
            return execution.proceed();
        }
    }
}
