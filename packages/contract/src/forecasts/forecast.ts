import { z } from "zod";
import { SCHEDULE_MAX } from "../budgets/budget";
import { budgetRoutes } from "../budgets/routes";
import { dateField, moneyInput, moneyOutput, uuidField } from "../http/fields";

/** docs/spec/extensions.md §8: how far a forecast reaches, and how long its what-if lists may be. */
export const FORECAST_MAX_DAYS = 1_096;
export const FORECAST_DEFAULT_DAYS = 90;
export const WHAT_IF_MAX = 100;
export const FORECAST_INTERVALS = ["day", "week", "month"] as const;
export type ForecastInterval = (typeof FORECAST_INTERVALS)[number];
export const FORECAST_EVENT_KINDS = ["fund", "recur", "item"] as const;
export const FORECAST_EVENT_STATUSES = ["complete", "partial", "skipped"] as const;
/** The name a what-if budget has in the answer: "new-1" for the first. */
export const newBudgetName = (index: number) => `new-${index + 1}`;
export const ITEM_DESCRIPTION_MAX = 200;

const tooMany = (what: string) => `Ensure this field has no more than ${WHAT_IF_MAX} ${what}.`;

/** The query both forms share. */
export const forecastQuery = {
  until: dateField()
    .meta({
      description: `The last day forecast: after the account's today, at most ${FORECAST_MAX_DAYS} days after it; default ${FORECAST_DEFAULT_DAYS} days after it.`,
      example: "2026-09-30",
    })
    .optional(),
  interval: z
    .enum(FORECAST_INTERVALS)
    .meta({
      description:
        "The series' spacing: `day` every day, `week` every Sunday, `month` every last day of a month; `until` is always a point. Default `month`.",
      example: "month",
    })
    .optional(),
};

export const ForecastItemSchema = z
  .object({
    description: z
      .string()
      .trim()
      .min(1, "This field may not be blank.")
      .max(ITEM_DESCRIPTION_MAX)
      .meta({ description: "What it is, as the answer's events name it.", example: "Car repair" }),
    amount: moneyInput().meta({
      description: "Signed: positive is money in, negative money out.",
      example: "-1200.00",
    }),
    date: dateField()
      .meta({ description: "The one day it happens (give this or `schedule`).", example: "2026-07-15" })
      .optional(),
    schedule: z
      .string()
      .trim()
      .max(SCHEDULE_MAX)
      .meta({
        description:
          "An RRULE, as in a budget's `funding_schedule` (give this or `date`): it happens on each of its days.",
        example: "RRULE:FREQ=MONTHLY;BYMONTHDAY=1",
      })
      .optional(),
    budget: z
      .string()
      .trim()
      .max(40)
      .nullable()
      .meta({
        description:
          "The budget the money goes to or comes from: a budget's id, or `new-1`, … for a what-if budget; omitted or null: Unallocated.",
        example: null,
      })
      .optional(),
  })
  .meta({ id: "ForecastItem", description: "Money in or out on a day or on a schedule, never stored." });

const { bank_account: _account, ...newBudgetShape } = budgetRoutes.create.input.shape;
const { id: _id, ...changeShape } = budgetRoutes.update.input.shape;

export const ForecastWhatIfsSchema = z.object({
  items: z
    .array(ForecastItemSchema)
    .max(WHAT_IF_MAX, tooMany("items"))
    .meta({ description: "Money in or out, applied before the funding events of its day." })
    .optional(),
  budgets: z
    .array(
      z.object(newBudgetShape).meta({
        id: "ForecastNewBudget",
        description: "A budget that does not exist, with the fields `POST /api/v1/budgets/` takes.",
      }),
    )
    .max(WHAT_IF_MAX, tooMany("budgets"))
    .meta({
      description:
        "New budgets, as `POST /api/v1/budgets/` takes them without `bank_account`; named `new-1`, `new-2`, … in the answer.",
    })
    .optional(),
  changes: z
    .array(
      z.object({ budget: uuidField().meta({ description: "The budget to change." }), ...changeShape }).meta({
        id: "ForecastBudgetChange",
        description: "A change to one budget, with the fields `PATCH /api/v1/budgets/{id}/` takes.",
      }),
    )
    .max(WHAT_IF_MAX, tooMany("changes"))
    .meta({
      description: "Changes to budgets, as `PATCH /api/v1/budgets/{id}/` takes them, applied in order.",
    })
    .optional(),
});

const money = (description: string, example: string) => moneyOutput().meta({ description, example });

export const ForecastBudgetSchema = z
  .object({
    budget: z.string().meta({
      description: "The budget's id, or `new-1`, … for a what-if budget.",
      example: "0f7c1a52-3a8e-4b5e-9f0a-6d2b8c9e1a11",
    }),
    name: z.string().meta({ description: "Its name.", example: "Car insurance" }),
    start: money("Its balance now.", "120.00"),
    end: money("Its balance at the end of `until`.", "600.00"),
    funded: money("What its fund events moved in.", "480.00"),
    refreshed: money("What its refreshes (Recurring) moved in.", "0.00"),
    shortfall: money("What its occurrences still lack at `until`.", "0.00"),
    events: z.number().int().meta({ description: "How many of its events the forecast holds.", example: 4 }),
    partial_events: z.number().int().meta({ description: "How many of them end partial.", example: 0 }),
    completes_on: z.iso
      .date()
      .nullable()
      .meta({ description: "The day a Goal completes within the forecast, or null.", example: "2026-09-01" }),
  })
  .meta({ id: "ForecastBudget", description: "One budget over the forecast." });

export const ForecastEventSchema = z
  .object({
    date: z.iso
      .date()
      .meta({ description: "The day it applies (an overdue event's own day).", example: "2026-07-01" }),
    kind: z.enum(FORECAST_EVENT_KINDS).meta({
      description:
        "`fund` from Unallocated, `recur` a Recurring budget's refresh from its fill-up, `item` a what-if.",
      example: "fund",
    }),
    budget: z.string().nullable().meta({
      description:
        "The budget the money goes to or comes from (a fill-up's own id for its fund events); null for Unallocated.",
      example: "0f7c1a52-3a8e-4b5e-9f0a-6d2b8c9e1a11",
    }),
    description: z.string().meta({
      description: "What happens, in words; an item's own description.",
      example: "Funds Car insurance",
    }),
    intended: money("The amount as computed on its date.", "120.00"),
    amount: money("What moved.", "120.00"),
    status: z.enum(FORECAST_EVENT_STATUSES).meta({
      description: "`complete`, `partial` (Unallocated ran short) or `skipped` (the budget is paused).",
      example: "complete",
    }),
    unallocated_after: money("Unallocated's balance just after it.", "880.00"),
  })
  .meta({
    id: "ForecastEvent",
    description: "One fund or recur event the engine would make, or one what-if item.",
  });

export const ForecastPointSchema = z
  .object({
    date: z.iso.date().meta({ description: "The day, at its end.", example: "2026-07-31" }),
    unallocated: money("Unallocated at the end of the day.", "760.00"),
    budgets: z.record(z.string(), moneyOutput()).meta({
      description: "Each budget's balance at the end of the day, by id.",
      example: { "0f7c1a52-3a8e-4b5e-9f0a-6d2b8c9e1a11": "240.00" },
    }),
  })
  .meta({ id: "ForecastPoint", description: "Balances at the end of one day." });

const EXAMPLE_BUDGET = "0f7c1a52-3a8e-4b5e-9f0a-6d2b8c9e1a11";

export const ForecastSchema = z
  .object({
    bank_account: z.uuid().meta({ description: "The account forecast." }),
    currency: z.string().meta({ description: "The account's currency.", example: "USD" }),
    from: z.iso.date().meta({ description: "The account's today.", example: "2026-06-15" }),
    until: z.iso.date().meta({ description: "The last day forecast.", example: "2026-08-31" }),
    assumptions: z.array(z.string()).meta({ description: "What the forecast takes for granted." }),
    unallocated: z
      .object({
        start: money("Unallocated now.", "1000.00"),
        end: money("Unallocated at the end of `until`.", "520.00"),
        lowest: z
          .object({
            date: z.iso.date().meta({ description: "The first day it is reached.", example: "2026-08-01" }),
            balance: money("Its lowest end-of-day balance from today through `until`.", "520.00"),
          })
          .meta({ description: "Unallocated's low point." }),
        first_negative: z.iso.date().nullable().meta({
          description: "The first day Unallocated ends below zero, or null.",
          example: null,
        }),
      })
      .meta({ description: "Unallocated over the forecast." }),
    budgets: z.array(ForecastBudgetSchema).meta({
      description:
        "Every budget but Unallocated and archived ones (fill-up goals each their own), then the what-if budgets.",
    }),
    events: z
      .array(ForecastEventSchema)
      .meta({ description: "Every event and item, in the order they apply." }),
    series: z
      .array(ForecastPointSchema)
      .meta({ description: "End-of-day balances at each point of the interval, and at `until`." }),
  })
  .meta({
    id: "Forecast",
    description: "The funding engine run forward from the account's state now, without writing.",
    example: {
      bank_account: "5b0e7c3d-1f2a-4c6b-8d9e-0a1b2c3d4e5f",
      currency: "USD",
      from: "2026-06-15",
      until: "2026-07-31",
      assumptions: [
        "Starts from the balances of 2026-06-15 and assumes nothing else changes: no other transaction, transfer or budget edit before 2026-07-31.",
      ],
      unallocated: {
        start: "1000.00",
        end: "760.00",
        lowest: { date: "2026-07-01", balance: "760.00" },
        first_negative: null,
      },
      budgets: [
        {
          budget: EXAMPLE_BUDGET,
          name: "Car insurance",
          start: "0.00",
          end: "240.00",
          funded: "240.00",
          refreshed: "0.00",
          shortfall: "0.00",
          events: 2,
          partial_events: 0,
          completes_on: null,
        },
      ],
      events: [
        {
          date: "2026-06-15",
          kind: "fund",
          budget: EXAMPLE_BUDGET,
          description: "Funds Car insurance",
          intended: "120.00",
          amount: "120.00",
          status: "complete",
          unallocated_after: "880.00",
        },
        {
          date: "2026-07-01",
          kind: "fund",
          budget: EXAMPLE_BUDGET,
          description: "Funds Car insurance",
          intended: "120.00",
          amount: "120.00",
          status: "complete",
          unallocated_after: "760.00",
        },
      ],
      series: [
        { date: "2026-06-30", unallocated: "880.00", budgets: { [EXAMPLE_BUDGET]: "120.00" } },
        { date: "2026-07-31", unallocated: "760.00", budgets: { [EXAMPLE_BUDGET]: "240.00" } },
      ],
    },
  });
