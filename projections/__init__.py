"""Read models folded from the events: groups, tables, hands, balances, audit trails."""
