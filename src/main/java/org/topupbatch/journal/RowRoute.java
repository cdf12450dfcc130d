package org.topupbatch.journal;

import java.util.ArrayList;
import java.util.List;

/**
 * With several accounts (docs/accounts-and-dialects.md#several-accounts), where a row may be ordered, decided at intake:
 * the accounts that could take it then, best first, each with the row's SKU there and the price it
 * asked. The row is at one of them at a time ({@link RowRecord#attempt()}); it moves to the next only
 * after the one before refused it in a way that proves no order was made.
 */
public record RowRoute(List<Stop> stops) {

    /** One account that can take the row: under which SKU, at which price when the row was accepted. */
    public record Stop(String account, String sku, long price) {
    }

    public RowRoute {
        if (stops == null || stops.isEmpty()) {
            throw new IllegalArgumentException("a route has at least one account");
        }
        stops = List.copyOf(stops);
    }

    /** The account of attempt {@code attempt} (1 = the first). */
    public Stop at(int attempt) {
        return stops.get(Math.max(1, Math.min(attempt, stops.size())) - 1);
    }

    public int size() {
        return stops.size();
    }

    static String write(RowRoute route) {
        if (route == null) {
            return null;
        }
        List<String> cells = new ArrayList<>(route.stops.size() * 3);
        for (Stop stop : route.stops) {
            cells.add(stop.account());
            cells.add(stop.sku());
            cells.add(Long.toString(stop.price()));
        }
        return JsonText.write(cells);
    }

    static RowRoute read(String stored) {
        if (stored == null || stored.isBlank()) {
            return null;
        }
        List<String> cells = JsonText.read(stored);
        List<Stop> stops = new ArrayList<>(cells.size() / 3);
        for (int i = 0; i + 2 < cells.size(); i += 3) {
            stops.add(new Stop(cells.get(i), cells.get(i + 1), Long.parseLong(cells.get(i + 2))));
        }
        return stops.isEmpty() ? null : new RowRoute(stops);
    }
}
