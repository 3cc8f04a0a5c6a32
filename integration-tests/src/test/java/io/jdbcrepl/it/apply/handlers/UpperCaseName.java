package io.jdbcrepl.it.apply.handlers;

import io.jdbcrepl.api.DmlContext;
import io.jdbcrepl.api.DmlHandler;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import java.sql.SQLException;

/** A DML handler (SPEC 5.4) that changes the LCR before applying it: names in upper case. */
public class UpperCaseName implements DmlHandler {

    @Override
    public void handle(DmlContext context) throws SQLException {
        TypedValue name = context.lcr().newValues().get("name");
        if (name != null && name.value() != null) {
            context.lcr().newValues().put("name", ValueType.STRING, name.value().toString().toUpperCase());
        }
        context.execute(true);
    }
}
