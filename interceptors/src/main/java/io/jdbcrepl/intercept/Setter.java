package io.jdbcrepl.intercept;

/**
 * The {@link java.sql.PreparedStatement} setters ({@code setX(int index, …)}) an application may
 * call: what a {@link BoundParameter} records, resolved once per proxied method, never per call.
 */
public enum Setter {
    SET_NULL("setNull"),
    SET_BOOLEAN("setBoolean"),
    SET_BYTE("setByte"),
    SET_SHORT("setShort"),
    SET_INT("setInt"),
    SET_LONG("setLong"),
    SET_FLOAT("setFloat"),
    SET_DOUBLE("setDouble"),
    SET_BIG_DECIMAL("setBigDecimal"),
    SET_STRING("setString"),
    SET_NSTRING("setNString"),
    SET_BYTES("setBytes"),
    SET_DATE("setDate"),
    SET_TIME("setTime"),
    SET_TIMESTAMP("setTimestamp"),
    SET_OBJECT("setObject"),
    SET_BLOB("setBlob"),
    SET_CLOB("setClob"),
    SET_ARRAY("setArray"),
    SET_ASCII_STREAM("setAsciiStream"),
    SET_BINARY_STREAM("setBinaryStream"),
    SET_UNICODE_STREAM("setUnicodeStream"),
    SET_CHARACTER_STREAM("setCharacterStream"),
    SET_NCHARACTER_STREAM("setNCharacterStream"),
    SET_NCLOB("setNClob"),
    SET_REF("setRef"),
    SET_ROW_ID("setRowId"),
    SET_SQLXML("setSQLXML"),
    SET_URL("setURL");

    private final String methodName;

    Setter(String methodName) {
        this.methodName = methodName;
    }

    /** The setter called {@code methodName}; IllegalArgumentException for a method that is not one. */
    public static Setter named(String methodName) {
        for (Setter setter : values()) {
            if (setter.methodName.equals(methodName)) return setter;
        }
        throw new IllegalArgumentException("Not a PreparedStatement setter: " + methodName);
    }

    public String methodName() {
        return methodName;
    }

    /** The method's name, as in messages and {@link BoundParameter#toString()}. */
    @Override
    public String toString() {
        return methodName;
    }
}
