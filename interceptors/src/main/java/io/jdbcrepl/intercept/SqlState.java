package io.jdbcrepl.intercept;

import java.sql.SQLException;

/**
 * The SQLStates the driver raises, and those it looks for in what a database raised. Named for their
 * meaning, as in PostgreSQL's error code table; a state only one vendor uses says so.
 */
public enum SqlState {

    // ---- raised by the driver ----

    NO_DATA("02000"),
    /** A parameter marker with no value bound. */
    WRONG_NUMBER_OF_PARAMETERS("07001"),
    INVALID_DESCRIPTOR_INDEX("07009"),
    CONNECTION_EXCEPTION("08000"),
    UNABLE_TO_CONNECT("08001"),
    /**
     * A statement or feature the driver refuses (a statement it cannot capture, an option it does not
     * support). Class 0A (feature not supported) with an implementation-defined subclass, not the
     * standard {@code 0A000}: HikariCP and other pools treat {@code 0A000} as a broken connection and
     * evict it, while a refusal leaves the connection perfectly usable.
     */
    REFUSED("0AR01"),
    CARDINALITY_VIOLATION("21000"),
    DATA_EXCEPTION("22000"),
    INVALID_PARAMETER_VALUE("22023"),
    INTEGRITY_CONSTRAINT_VIOLATION("23000"),
    INVALID_CURSOR_STATE("24000"),
    INVALID_CATALOG_NAME("3D000"),
    INVALID_SCHEMA_NAME("3F000"),
    TRANSACTION_ROLLBACK("40000"),
    SERIALIZATION_FAILURE("40001"),
    INSUFFICIENT_PRIVILEGE("42501"),
    SYNTAX_ERROR("42601"),
    UNDEFINED_COLUMN("42703"),
    UNDEFINED_OBJECT("42704"),
    DUPLICATE_OBJECT("42710"),
    UNDEFINED_TABLE("42P01"),
    INVALID_COLUMN_REFERENCE("42P10"),
    /** MariaDB's (and ODBC's) unknown column, where the driver answers as MariaDB's driver would. */
    COLUMN_NOT_FOUND("42S22"),
    OBJECT_NOT_IN_PREREQUISITE_STATE("55000"),
    ADMIN_SHUTDOWN("57P01"),
    SYSTEM_ERROR("58000"),
    IO_ERROR("58030"),
    GENERAL_ERROR("HY000"),
    OPERATION_CANCELED("HY008"),
    TIMEOUT_EXPIRED("HYT00"),
    /** MySQL Connector/J's illegal argument, where the driver answers as Connector/J would. */
    ILLEGAL_ARGUMENT("S1009"),
    INTERNAL_ERROR("XX000"),

    // ---- only received from a database ----

    UNIQUE_VIOLATION("23505"),
    FOREIGN_KEY_VIOLATION("23503"),
    /** H2's foreign key violation by a child row whose parent is missing. */
    FOREIGN_KEY_PARENT_MISSING("23506"),
    READ_ONLY_SQL_TRANSACTION("25006"),
    LOCK_NOT_AVAILABLE("55P03"),
    /** MySQL's and MariaDB's query interrupted (a statement timeout). */
    QUERY_INTERRUPTED("70100"),
    /** MySQL's and MariaDB's unknown table. */
    BASE_TABLE_NOT_FOUND("42S02"),
    /** H2's unknown table or view. */
    TABLE_OR_VIEW_NOT_FOUND("42102"),
    /** H2's unknown schema. */
    SCHEMA_NOT_FOUND("90079");

    private final String code;

    SqlState(String code) {
        this.code = code;
    }

    /** The five characters of the state, as {@link SQLException#getSQLState()} returns them. */
    public String code() {
        return code;
    }

    /** True when {@code state} (possibly null) is this state. */
    public boolean is(String state) {
        return code.equals(state);
    }

    public SQLException exception(String message) {
        return new SQLException(message, code);
    }

    public SQLException exception(String message, Throwable cause) {
        return new SQLException(message, code, cause);
    }
}
