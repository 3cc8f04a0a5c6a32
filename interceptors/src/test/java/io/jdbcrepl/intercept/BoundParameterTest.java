package io.jdbcrepl.intercept;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundParameterTest {

    @Test
    void everyIndexedSetterOfPreparedStatementHasItsSetter() {
        for (Method method : PreparedStatement.class.getDeclaredMethods()) { // as the recording proxy matches them
            if (!method.getName().startsWith("set") || method.getParameterCount() == 0
                    || method.getParameterTypes()[0] != int.class) continue;
            assertThat(Setter.named(method.getName()).methodName()).isEqualTo(method.getName());
        }
        assertThatThrownBy(() -> Setter.named("setFetchSize")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rebindsWithTheSameSetterAndArguments() throws SQLException {
        Timestamp at = new Timestamp(0);
        ByteArrayInputStream stream = new ByteArrayInputStream(new byte[] {1});
        List<BoundParameter> parameters = List.of(
                new BoundParameter(1, Setter.SET_INT, new Object[] {7}),
                new BoundParameter(2, Setter.SET_NULL, new Object[] {Types.VARCHAR}),
                new BoundParameter(3, Setter.SET_BIG_DECIMAL, new Object[] {BigDecimal.TEN}),
                new BoundParameter(4, Setter.SET_OBJECT, new Object[] {"x", JDBCType.VARCHAR}),
                new BoundParameter(5, Setter.SET_TIMESTAMP, new Object[] {at}),
                new BoundParameter(6, Setter.SET_BLOB, new Object[] {stream}),
                new BoundParameter(7, Setter.SET_BINARY_STREAM, new Object[] {stream, 1L}));
        List<String> calls = new ArrayList<>();
        PreparedStatement statement = (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    calls.add(method.getName() + Arrays.toString(args));
                    return null;
                });
        for (BoundParameter p : parameters) p.bindTo(statement, p.index() + 10);
        assertThat(calls).containsExactly("setInt[11, 7]", "setNull[12, 12]", "setBigDecimal[13, 10]",
                "setObject[14, x, VARCHAR]", "setTimestamp[15, " + at + "]", "setBlob[16, " + stream + "]",
                "setBinaryStream[17, " + stream + ", 1]");
    }

    @Test
    void equalityAndTextFollowSetterIndexAndArguments() {
        BoundParameter p = new BoundParameter(1, Setter.SET_BYTES, new Object[] {new byte[] {1, 2}});
        assertThat(p).isEqualTo(new BoundParameter(1, Setter.SET_BYTES, new Object[] {new byte[] {1, 2}}))
                .hasSameHashCodeAs(new BoundParameter(1, Setter.SET_BYTES, new Object[] {new byte[] {1, 2}}))
                .isNotEqualTo(new BoundParameter(1, Setter.SET_OBJECT, new Object[] {new byte[] {1, 2}}));
        assertThat(p.hashCode()).isEqualTo(31 * (31 + "setBytes".hashCode()) + Arrays.deepHashCode(new Object[] {new byte[] {1, 2}}));
        assertThat(p).hasToString("1:setBytes(byte[2])");
        assertThat(new BoundParameter(2, Setter.SET_NULL, new Object[] {Types.INTEGER})).hasToString("2:setNull(null)");
    }

    @Test
    void logKeepsTheLastSetterPerIndex() {
        ParameterLog log = new ParameterLog();
        log.record(Setter.SET_STRING, new Object[] {2, "b"});
        log.record(Setter.SET_INT, new Object[] {1, 1});
        log.record(Setter.SET_LONG, new Object[] {1, 5L});
        assertThat(log.current()).containsExactly(new BoundParameter(1, Setter.SET_LONG, new Object[] {5L}),
                new BoundParameter(2, Setter.SET_STRING, new Object[] {"b"}));
    }
}
