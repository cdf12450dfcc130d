package org.topupbatch.intake;

import org.topupbatch.provider.PriceCatalog;

import org.topupbatch.text.OneLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.topupbatch.provider.Product;

/**
 * Decides whether a row may be ordered, with one reason when not. The checks run in the order of
 * docs/batch-files-and-reports.md#rejected-rows so that the reason is the first thing wrong: malformed row, required
 * fields, ref_id form, ref_id already taken, product, customer rules, max_price, repeated order
 * (when the caller asks: {@link Repeats}). The balance is the planner's business (it needs the
 * running total). Thread-safe when the catalog is.
 */
public final class RowValidator {

    public static final int MAX_REF_ID_LENGTH = 50;

    // ASCII only: what the provider accepts for ref_id
    // (character loops, not regular expressions: they run for every row of a million-row file)

    private final PriceCatalog catalog;
    private final CustomerRules rules;

    public RowValidator(PriceCatalog catalog, CustomerRules rules) {
        this.catalog = catalog;
        this.rules = rules;
    }

    /** Validates without a ref_id uniqueness check. */
    public RowDecision validate(BatchRow row) {
        return validate(row, refId -> false);
    }

    /** Says why a ref_id may not be used for this row, or null when it is free. */
    @FunctionalInterface
    public interface RefIdConflicts {
        String reason(String refId);
    }

    /** {@code refIdTaken} says whether a ref_id is already used (by an earlier batch). */
    public RowDecision validate(BatchRow row, Predicate<String> refIdTaken) {
        return validateAgainst(row, ref -> refIdTaken.test(ref) ? alreadySubmitted(ref) : null);
    }

    /** The rejection for a ref_id an earlier batch already ordered. */
    public static String alreadySubmitted(String refId) {
        return "ref_id " + refId + " already submitted (an earlier batch has it)";
    }

    public RowDecision validateAgainst(BatchRow row, RefIdConflicts conflicts) {
        return validateAgainst(row, conflicts, null, Repeats.NONE);
    }

    /** Says why a row with this repeat key ({@link RepeatKey}) repeats an earlier order, or null when it does not. */
    @FunctionalInterface
    public interface Repeats {
        Repeats NONE = key -> null;

        String reason(String repeatKey);
    }

    /**
     * As {@link #validateAgainst(BatchRow, RefIdConflicts)}, and last (after max_price, before the
     * balance): a row that would be ordered but repeats an earlier order ({@code repeats}) is rejected.
     * Last, because only a row that is otherwise fit to order can repeat an order, and every other
     * reason is the row's own fault, worth saying first. An accepted decision carries the row's repeat key:
     * {@code repeatKey} when the caller made it already ({@link #repeatKey}, to look a chunk's keys up at
     * once), else made here.
     */
    public RowDecision validateAgainst(BatchRow row, RefIdConflicts conflicts, String repeatKey, Repeats repeats) {
        Long maxPrice = parseMaxPrice(row.maxPrice());
        List<String> warnings = new ArrayList<>();
        String reason = reasonToReject(row, conflicts, maxPrice, warnings);
        if (reason != null) {
            return RowDecision.reject(reason, maxPrice);
        }
        String key = repeatKey != null ? repeatKey : repeatKey(row);
        String repeat = repeats.reason(key);
        if (repeat != null) {
            return RowDecision.reject(repeat, maxPrice);
        }
        return RowDecision.accept(catalog.find(row.productSku()).orElseThrow().price(), maxPrice, warnings)
                .withRepeatKey(key);
    }

    /** The row's repeat key, or null when its product is not in the price list (such a row is rejected anyway). */
    String repeatKey(BatchRow row) {
        Optional<Product> product = catalog.find(row.productSku());
        if (product.isEmpty()) {
            return null;
        }
        boolean phone = rules.ruleFor(product.get().brand()).customerNo().phone();
        return RepeatKey.of(row.productSku(), row.customerNo(), row.customerNoZone(), phone);
    }

    private String reasonToReject(BatchRow row, RefIdConflicts conflicts, Long maxPrice, List<String> warnings) {
        if (row.malformed()) {
            return row.error();
        }
        List<String> empty = new ArrayList<>();
        if (row.refId().isEmpty()) {
            empty.add("ref_id");
        }
        if (row.productSku().isEmpty()) {
            empty.add("product_sku");
        }
        if (row.customerNo().isEmpty()) {
            empty.add("customer_no");
        }
        if (empty.size() == 1) {
            return "required field " + empty.get(0) + " is empty";
        }
        if (!empty.isEmpty()) {
            return "required fields " + String.join(", ", empty) + " are empty";
        }
        String refId = row.refId();
        if (refId.length() > MAX_REF_ID_LENGTH) {
            return "ref_id is " + refId.length() + " characters long, at most " + MAX_REF_ID_LENGTH + " are allowed";
        }
        if (firstBadIndex(refId) >= 0) {
            return "ref_id may hold only letters, digits, '-', '_' and '.' (found "
                    + firstBadChar(refId) + ")";
        }
        String conflict = conflicts.reason(refId);
        if (conflict != null) {
            return conflict;
        }
        Optional<Product> product = catalog.find(row.productSku());
        if (product.isEmpty()) {
            return "product_sku " + OneLine.of(row.productSku(), 100) + " is not in the price list";
        }
        if (!product.get().available()) {
            return "product_sku " + OneLine.of(row.productSku(), 100) + " is not available now";
        }
        CustomerCheck customer = rules.check(product.get().brand(), row.customerNo(), row.customerNoZone());
        if (customer.rejected()) {
            return customer.reason();
        }
        warnings.addAll(customer.warnings());
        if (!row.maxPrice().isEmpty()) {
            if (maxPrice == null) {
                return "max_price must be a whole number of rupiah, 0 or more, without separators (found '"
                        + OneLine.of(row.maxPrice(), 100) + "')";
            }
            long price = product.get().price();
            if (price > maxPrice) {
                return "price " + price + " exceeds max_price " + maxPrice;
            }
        }
        if (!row.notifyTo().isEmpty() && NotifyAddress.normalized(row.notifyTo()) == null) {
            return NotifyAddress.reason(row.notifyTo());
        }
        return null;
    }

    /** max_price as a number, or null when absent or not a whole non-negative number. */
    static Long parseMaxPrice(String text) {
        if (text == null || text.isEmpty() || text.length() > 18) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        return Long.valueOf(text);
    }

    /** ref_id holds letters, digits, '-', '_' and '.' (ASCII only); the index of the first other character, or -1. */
    private static int firstBadIndex(String refId) {
        if (refId.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < refId.length(); i++) {
            char c = refId.charAt(i);
            boolean fine = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!fine) {
                return i;
            }
        }
        return -1;
    }

    private static String firstBadChar(String refId) {
        int at = firstBadIndex(refId);
        int cp = at < 0 ? '?' : refId.codePointAt(at);
        if (cp == ' ') {
            return "a space";
        }
        return Character.isISOControl(cp) || Character.isWhitespace(cp)
                ? String.format("U+%04X", cp) : "'" + Character.toString(cp) + "'";
    }
}
