# ruff: noqa: E501 - message texts are data, kept one per line
"""Hand-written sessions of the session-search development set (written out as Claude Code JSONL).

Message kinds: ("u", text) a typed user message; ("a", text) an assistant reply (streamed over
several lines, as Claude Code writes it); ("t", tool, input, output) an assistant tool call and
its result; ("n", text) a user-line noise event; ("side", text) a sub-agent (sidechain) message.
A session with ``fork=True`` starts with a queue-operation line, as memory-recall forks do.
"""

from __future__ import annotations

SHOP, WEB, INFRA, ML, BLOG = (
    "/home/dev/shop-api",
    "/home/dev/webapp",
    "/home/dev/infra",
    "/home/dev/mlpipe",
    "/home/dev/blog",
)

SESSIONS: list[dict] = [
    # ---------------------------------------------------------------- shop-api
    dict(
        name="flaky-fixture",
        project=SHOP,
        day=40,
        messages=[
            (
                "u",
                "test_checkout passes alone but fails about one run in five when the whole suite runs. I think the db fixture is flaky",
            ),
            (
                "t",
                "Bash",
                "pytest tests/test_checkout.py -p no:randomly -x",
                '1 failed, 212 passed\nIntegrityError: duplicate key value violates unique constraint "orders_pkey"',
            ),
            (
                "a",
                "The `db` fixture is session-scoped, so rows written by one test survive into the next one. When test_orders runs first, the checkout test inserts an order id that already exists. That is why the failure depends on test order.",
            ),
            (
                "a",
                "I changed the fixture to open a transaction per test and roll it back:\n```python\n@pytest.fixture\ndef db(engine):\n    conn = engine.connect()\n    tx = conn.begin()\n    yield Session(bind=conn)\n    tx.rollback()\n    conn.close()\n```\nThe flaky fixture is now function-scoped and every test sees a clean database.",
            ),
            ("u", "ran the suite 30 times with pytest-repeat, no more flaky failures. nice"),
            (
                "a",
                "Great. I also added `-p randomly` to CI so an order-dependent test shows up immediately instead of intermittently.",
            ),
        ],
    ),
    dict(
        name="flaky-fixture-earlier",
        project=SHOP,
        day=39,
        messages=[
            (
                "u",
                "test_checkout passes alone but fails about one run in five when the whole suite runs. I think the db fixture is flaky",
            ),
            (
                "t",
                "Bash",
                "pytest tests/test_checkout.py -x",
                '1 failed, 212 passed\nIntegrityError: duplicate key value violates unique constraint "orders_pkey"',
            ),
            (
                "a",
                "The `db` fixture is session-scoped, so rows written by one test survive into the next one. When test_orders runs first, the checkout test inserts an order id that already exists.",
            ),
            ("n", "[Request interrupted by user]"),
        ],
    ),
    dict(
        name="alembic-migration",
        project=SHOP,
        day=55,
        messages=[
            (
                "u",
                "we need to add a status column to orders in postgres, with a migration that backfills existing rows as 'paid'",
            ),
            (
                "a",
                "I'll create an Alembic revision. Adding a NOT NULL column to a large table locks it, so the migration adds it nullable, backfills in batches, then sets NOT NULL.",
            ),
            (
                "t",
                "Bash",
                "alembic revision -m 'orders status'",
                "Generating migrations/versions/7c1e_orders_status.py ... done",
            ),
            (
                "a",
                "```python\ndef upgrade():\n    op.add_column('orders', sa.Column('status', sa.Text(), nullable=True))\n    op.execute(\"UPDATE orders SET status = 'paid' WHERE status IS NULL\")\n    op.alter_column('orders', 'status', nullable=False)\n```\nThe downgrade drops the column. Migrating a copy of production took 4 seconds.",
            ),
            ("u", "can we also make the migration reversible if the backfill fails halfway?"),
            (
                "a",
                "Postgres runs DDL inside the transaction, so if the backfill fails the whole migration rolls back and the column is not left half-made. alembic downgrade -1 works too.",
            ),
        ],
    ),
    dict(
        name="jwt-auth",
        project=SHOP,
        day=20,
        messages=[
            ("u", "implement login for the api: POST /auth/login returns a JWT access token and a refresh token"),
            (
                "a",
                "Plan: hash passwords with argon2, issue a short-lived access token (15 minutes) signed with HS256, and a refresh token stored hashed in a refresh_tokens table so it can be revoked.",
            ),
            (
                "a",
                '```python\ndef create_access_token(user_id: int) -> str:\n    payload = {"sub": str(user_id), "exp": utcnow() + timedelta(minutes=15)}\n    return jwt.encode(payload, settings.jwt_secret, algorithm="HS256")\n```\nThe /auth/refresh endpoint rotates the refresh token on every use.',
            ),
            ("u", "what happens when the jwt secret is rotated?"),
            (
                "a",
                "Every access token signed with the old secret fails verification, so users re-authenticate with their refresh token. To avoid that, keep the previous key in a `kid`-indexed keyset for one token lifetime.",
            ),
        ],
    ),
    dict(
        name="n-plus-one",
        project=SHOP,
        day=62,
        messages=[
            ("u", "GET /orders takes 3 seconds for customers with many orders, can you profile it"),
            (
                "t",
                "Bash",
                "python -m cProfile -s cumtime scripts/orders_bench.py | head",
                "4012 function calls ... sqlalchemy/orm/loading.py ... 401 queries",
            ),
            (
                "a",
                "It's an N+1 query: the endpoint loads the orders, then lazily loads `order.items` once per order. 400 orders means 401 SQL queries.",
            ),
            (
                "a",
                "Fixed with eager loading:\n```python\nstmt = select(Order).where(Order.customer_id == cid).options(selectinload(Order.items))\n```\nNow it is 2 queries and the endpoint answers in 90 ms.",
            ),
        ],
    ),
    dict(
        name="redis-cache",
        project=SHOP,
        day=70,
        messages=[
            (
                "u",
                "the product catalog endpoint hits postgres on every request. add a redis cache with invalidation when a product changes",
            ),
            (
                "a",
                "I'll cache the serialized catalog page in Redis under `catalog:v1:{page}` with a 10 minute TTL, and delete the keys from the product update handler so an edit shows up immediately.",
            ),
            (
                "a",
                "```python\nasync def invalidate_catalog(redis):\n    async for key in redis.scan_iter('catalog:v1:*'):\n        await redis.delete(key)\n```\nA version prefix lets us drop the whole cache by bumping v1 to v2.",
            ),
            ("u", "isn't scan_iter slow with a big keyspace?"),
            (
                "a",
                "It is O(keys). A cheaper cache invalidation is a generation counter: store `catalog:gen` and include it in every key, then incrementing it invalidates everything at once.",
            ),
        ],
    ),
    dict(
        name="stripe-webhook",
        project=SHOP,
        day=75,
        messages=[
            ("u", "stripe webhooks fail with 'No signatures found matching the expected signature for payload'"),
            (
                "a",
                "The signature is computed over the raw request body. FastAPI parses the JSON before the handler sees it, so the bytes differ. Read `await request.body()` and pass those bytes to `stripe.Webhook.construct_event`.",
            ),
            (
                "a",
                "Also check that STRIPE_WEBHOOK_SECRET is the endpoint's signing secret (whsec_...), not the API key; the CLI forwarding uses a different secret than the dashboard endpoint.",
            ),
            ("u", "that was it, the raw body. webhook signature verification passes now"),
        ],
    ),
    dict(
        name="rate-limit",
        project=SHOP,
        day=80,
        messages=[
            ("u", "add rate limiting to the public api: 100 requests per minute per api key"),
            (
                "a",
                "I'll implement a token bucket in Redis with a Lua script so the check-and-decrement is atomic. Responses over the limit get 429 with a Retry-After header.",
            ),
            (
                "a",
                "```lua\nlocal tokens = tonumber(redis.call('GET', KEYS[1]) or ARGV[1])\nif tokens < 1 then return 0 end\nredis.call('DECR', KEYS[1])\n```\nThe rate limiter middleware reads the api key from the Authorization header.",
            ),
        ],
    ),
    dict(
        name="celery-retries",
        project=SHOP,
        day=85,
        messages=[
            ("u", "the celery task that sends order emails gives up after the first SMTP timeout"),
            (
                "a",
                "Celery does not retry by default. I set `autoretry_for=(SMTPException, TimeoutError)`, `retry_backoff=True` and `max_retries=5` on the send_order_email task.",
            ),
            (
                "a",
                "Retries with exponential backoff need the task to be idempotent, so I record the sent email id and skip resending if the task runs twice.",
            ),
        ],
    ),
    dict(
        name="pip-freeze-noise",
        project=SHOP,
        day=86,
        messages=[
            ("u", "write the list of installed packages into requirements.lock"),
            (
                "t",
                "Bash",
                "pip freeze",
                "alembic==1.13.1\namqp==5.2.0\nargon2-cffi==23.1.0\ncelery==5.3.6\nfastapi==0.110.0\nkombu==5.3.5\npsycopg==3.1.18\nredis==5.0.3\nstripe==8.6.0",
            ),
            ("a", "Done: requirements.lock now pins the 41 packages of the virtual environment."),
        ],
    ),
    dict(
        name="readme-postgres-passing",
        project=SHOP,
        day=30,
        messages=[
            ("u", "rewrite the README setup section so a new developer can get going"),
            (
                "a",
                "Draft: 1. Install Python 3.12 and postgres. 2. Create the postgres role. 3. Copy .env.example. 4. Run the app. I mention postgres in the prerequisites and the troubleshooting list.",
            ),
            (
                "u",
                "say that postgres 15 or newer is needed, and mention that postgres must be running before tests, and the postgres port",
            ),
            (
                "a",
                "Updated: 'Requires postgres 15+', 'start postgres before running tests', 'postgres listens on 5432 by default'. I also added a badge and a table of contents and fixed the headings.",
            ),
            ("u", "also the license section and contributing guidelines please"),
            (
                "a",
                "Added LICENSE (MIT) reference and a CONTRIBUTING section with the branch naming convention and the review checklist.",
            ),
        ],
    ),
    dict(
        name="fixture-json-passing",
        project=SHOP,
        day=45,
        messages=[
            ("u", "load the product seed data from fixtures/products.json when the dev server starts"),
            (
                "a",
                "I added a startup hook that reads the fixture file and inserts products that are missing. The fixture path is configurable.",
            ),
            ("u", "the fixture has prices as strings, convert them"),
            (
                "a",
                "Prices are now parsed with Decimal when the fixture loads. The fixture loader skips rows without a sku and logs how many it skipped.",
            ),
            ("u", "and make the seed step idempotent"),
            (
                "a",
                "It upserts on sku, so running the seed twice changes nothing. The fixture is only read in the dev environment.",
            ),
        ],
    ),
    # ---------------------------------------------------------------- webapp
    dict(
        name="useeffect-loop",
        project=WEB,
        day=25,
        messages=[
            ("u", "the ProfilePage component re-renders forever and the browser tab freezes"),
            (
                "a",
                "The useEffect depends on `filters`, which is a new object on every render, and the effect calls setProfile, which renders again: an infinite loop.",
            ),
            (
                "a",
                "```tsx\nconst filters = useMemo(() => ({ team, role }), [team, role]);\nuseEffect(() => { fetchProfile(filters).then(setProfile); }, [filters]);\n```\nMemoizing the dependency breaks the render loop.",
            ),
            ("u", "confirmed, it renders twice in dev (strict mode) and then stops"),
        ],
    ),
    dict(
        name="vite-alias",
        project=WEB,
        day=28,
        messages=[
            ("u", "imports like '@/components/Button' work in vscode but vite says it can't resolve them"),
            (
                "a",
                "tsconfig `paths` only informs the type checker. Vite needs the same path alias in vite.config.ts under `resolve.alias`, or the vite-tsconfig-paths plugin which reads tsconfig.",
            ),
            (
                "a",
                "```ts\nimport tsconfigPaths from 'vite-tsconfig-paths'\nexport default defineConfig({ plugins: [react(), tsconfigPaths()] })\n```",
            ),
        ],
    ),
    dict(
        name="websocket-reconnect",
        project=WEB,
        day=90,
        messages=[
            ("u", "live notifications stop after the laptop sleeps; the websocket never reconnects"),
            (
                "a",
                "The socket's close event fires but nothing reopens it. I added a reconnect loop with exponential backoff (1s, 2s, 4s... capped at 30s) plus jitter, and a heartbeat ping every 25 seconds to detect dead connections.",
            ),
            (
                "a",
                "```ts\nfunction connect(attempt = 0) {\n  const ws = new WebSocket(url);\n  ws.onclose = () => setTimeout(() => connect(attempt + 1), backoff(attempt));\n}\n```\nOn reconnect the client asks for missed notifications since the last event id.",
            ),
        ],
    ),
    dict(
        name="websocket-passing",
        project=WEB,
        day=92,
        messages=[
            ("u", "update the architecture doc with the list of services"),
            (
                "a",
                "Listed: the web frontend, the api, the websocket gateway, the worker. The websocket gateway is just named, no details.",
            ),
            ("u", "add the ports"),
            (
                "a",
                "Ports: frontend 5173, api 8000, websocket 8081, worker none. I also noted the websocket path /ws in the table.",
            ),
        ],
    ),
    dict(
        name="dark-mode",
        project=WEB,
        day=33,
        messages=[
            ("u", "add a dark mode toggle that remembers the choice"),
            (
                "a",
                "Colors move into CSS variables on :root, and a `[data-theme=dark]` block overrides them. The toggle writes the theme to localStorage and defaults to prefers-color-scheme.",
            ),
            ("a", "```css\n:root { --bg: #fff; --fg: #111; }\n[data-theme='dark'] { --bg: #111; --fg: #eee; }\n```"),
        ],
    ),
    dict(
        name="playwright-flaky",
        project=WEB,
        day=95,
        messages=[
            ("u", "the playwright e2e test for checkout is flaky in CI, times out on the pay button"),
            (
                "a",
                "It clicks before the Stripe iframe has loaded. Replace the fixed `waitForTimeout(500)` with `await expect(page.getByRole('button', { name: 'Pay' })).toBeEnabled()` so the test waits for the real condition.",
            ),
            ("a", "I also enabled trace on first retry so the next failure has a recording."),
        ],
    ),
    dict(
        name="chrome-devtools-profiling",
        project=WEB,
        day=100,
        messages=[
            ("u", "the dashboard gets slower the longer it is open, I suspect a memory leak"),
            (
                "a",
                "Let's use Chrome DevTools: in the Memory panel take a heap snapshot, use the app for a minute, take another and compare. Detached DOM nodes growing between snapshots point at the leak.",
            ),
            ("t", "Bash", "npx lighthouse http://localhost:5173 --only-categories=performance", "Performance: 41"),
            (
                "a",
                "The comparison shows 12,000 detached chart nodes: the chart component adds a resize listener and never removes it. In the Chrome DevTools Performance panel the scripting time per frame also dropped from 40ms to 6ms after removing the listener in the cleanup.",
            ),
            ("u", "heap stays flat now in chrome devtools after 10 minutes"),
        ],
    ),
    dict(
        name="css-grid-chrome-passing",
        project=WEB,
        day=101,
        messages=[
            ("u", "the pricing cards overlap on narrow screens"),
            (
                "a",
                "I'll use Chrome to check. The grid uses fixed 300px columns; switched to `repeat(auto-fit, minmax(260px, 1fr))`.",
            ),
            ("u", "check safari too"),
            ("a", "Looks right in Chrome and in Safari. I'll use Chrome devtools device mode for the phone sizes."),
            ("u", "spacing between cards is uneven"),
            (
                "a",
                "Replaced margins with `gap: 1.5rem`. Checked again in Chrome, fine. I'll use Chrome for the final check on the landing page too.",
            ),
            ("u", "and the footer?"),
            ("a", "Footer links wrap now. Verified in Chrome."),
        ],
    ),
    # ---------------------------------------------------------------- infra
    dict(
        name="crashloop",
        project=INFRA,
        day=50,
        messages=[
            ("u", "the api pod is in CrashLoopBackOff after the deploy"),
            ("t", "Bash", "kubectl logs deploy/api --previous", "KeyError: 'DATABASE_URL'"),
            (
                "a",
                "The container exits at start because DATABASE_URL is missing: the new deployment references the configmap `api-config`, but the secret with the database url was renamed. The pod restarts, crashes again, and Kubernetes backs off.",
            ),
            (
                "a",
                "Fixed the `envFrom` to point at the `api-secrets` secret and added a startup check that prints which variable is missing instead of a KeyError.",
            ),
        ],
    ),
    dict(
        name="crashloop-again",
        project=INFRA,
        day=51,
        messages=[
            ("u", "the api pod is in CrashLoopBackOff again after the deploy"),
            ("t", "Bash", "kubectl logs deploy/api --previous", "KeyError: 'DATABASE_URL'"),
            (
                "a",
                "Same as yesterday: the container exits at start because DATABASE_URL is missing, the deployment references the old secret name. The pod restarts, crashes again, and Kubernetes backs off.",
            ),
            (
                "a",
                "Fixed the `envFrom` in the staging overlay too, and added the startup check there so it prints which variable is missing.",
            ),
            ("u", "good, both environments are healthy"),
        ],
    ),
    dict(
        name="terraform-lock",
        project=INFRA,
        day=60,
        messages=[
            ("u", "terraform plan hangs with 'Error acquiring the state lock'"),
            (
                "a",
                "A previous run was killed and left its lock in the DynamoDB lock table. Check that nobody is applying, then release it with `terraform force-unlock <LOCK_ID>` using the id from the error.",
            ),
            (
                "a",
                "To avoid stale state locks, the CI job now runs terraform with `-lock-timeout=5m` and the pipeline cancels the job gracefully instead of killing it.",
            ),
        ],
    ),
    dict(
        name="terraform-recall",
        project=INFRA,
        day=61,
        messages=[
            ("u", "do you remember what we talked about with the terraform state lock? use memory search"),
            (
                "a",
                "I'll search memory for that.\n[1/2] 5a1b2c3 • Oct 30 • /home/dev/infra\n    terraform plan hangs with 'Error acquiring the state lock'\n[2/2] 9d8e7f6 • Oct 12 • /home/dev/infra\n    state lock table",
            ),
            ("u", "ok now let's configure the s3 bucket versioning for the backups bucket"),
            (
                "a",
                "Enabled versioning on the backups bucket and added a lifecycle rule that expires noncurrent versions after 30 days.",
            ),
        ],
    ),
    dict(
        name="docker-multistage",
        project=INFRA,
        day=65,
        messages=[
            ("u", "the api docker image is 1.9 GB, make it smaller"),
            (
                "a",
                "The image ships the compiler toolchain and pip cache. A multi-stage build compiles wheels in a builder stage and copies only the installed packages into python:3.12-slim.",
            ),
            (
                "a",
                "```dockerfile\nFROM python:3.12 AS build\nRUN pip wheel --wheel-dir /wheels -r requirements.txt\nFROM python:3.12-slim\nCOPY --from=build /wheels /wheels\nRUN pip install --no-cache-dir /wheels/*\n```\nThe image is now 210 MB.",
            ),
        ],
    ),
    dict(
        name="docker-passing",
        project=INFRA,
        day=66,
        messages=[
            ("u", "write the on-call runbook for the payment outage drill"),
            (
                "a",
                "Runbook: 1. check the status page 2. page the payments owner 3. look at the dashboard. After docker is up on the bastion you can tail logs there.",
            ),
            ("u", "add escalation contacts"),
            (
                "a",
                "Added the escalation matrix. Also noted that the docker host is the bastion, docker logs are kept 7 days, and docker restarts are not allowed during the drill.",
            ),
        ],
    ),
    dict(
        name="gha-cache",
        project=INFRA,
        day=70,
        messages=[
            ("u", "CI takes 9 minutes, most of it installing python packages"),
            (
                "a",
                "The GitHub Actions workflow reinstalls everything each run. `actions/setup-python` with `cache: pip` keys the pip cache on requirements files; that cut the install step from 6 minutes to 40 seconds.",
            ),
            ("a", "I also split lint and tests into parallel jobs; the pipeline now finishes in 3 minutes."),
        ],
    ),
    # ---------------------------------------------------------------- mlpipe
    dict(
        name="cuda-oom",
        project=ML,
        day=35,
        messages=[
            ("u", "training crashes with CUDA out of memory at batch size 64"),
            (
                "a",
                "The model needs about 30 GB of activations at batch 64 on a 24 GB card. Use gradient accumulation: batch 16 with 4 accumulation steps gives the same effective batch.",
            ),
            (
                "a",
                "```python\nloss = model(batch) / accum_steps\nloss.backward()\nif (step + 1) % accum_steps == 0:\n    optimizer.step(); optimizer.zero_grad()\n```\nWith bf16 autocast as well, peak memory is 14 GB.",
            ),
        ],
    ),
    dict(
        name="cuda-oom-fork",
        project=ML,
        day=36,
        fork=True,
        messages=[
            ("u", "search memory: CUDA out of memory gradient accumulation"),
            ("a", "Found a session about CUDA out of memory and gradient accumulation at batch 64."),
        ],
    ),
    dict(
        name="pandas-merge",
        project=ML,
        day=42,
        messages=[
            ("u", "after merging labels into the events dataframe the row count doubled"),
            (
                "a",
                "The labels table has duplicate keys, so `pd.merge` makes a many-to-many join and every event matching two labels appears twice. `validate='many_to_one'` makes pandas raise instead of silently duplicating rows.",
            ),
            (
                "a",
                "```python\nlabels = labels.drop_duplicates('event_id', keep='last')\nevents = events.merge(labels, on='event_id', how='left', validate='many_to_one')\n```",
            ),
        ],
    ),
    dict(
        name="seeds",
        project=ML,
        day=48,
        messages=[
            ("u", "two training runs with the same config give different accuracy, how do I make it reproducible"),
            (
                "a",
                "Seed every generator: `random.seed`, `np.random.seed`, `torch.manual_seed`, and the DataLoader workers via `worker_init_fn`. Also set `torch.backends.cudnn.deterministic = True` and `benchmark = False`.",
            ),
            (
                "a",
                "Remaining nondeterminism comes from atomic adds on the GPU; `torch.use_deterministic_algorithms(True)` makes them raise so you can find them.",
            ),
        ],
    ),
    dict(
        name="subagent-checkpointing",
        project=ML,
        day=49,
        messages=[
            ("u", "summarise the experiment tracking options for the team"),
            ("a", "MLflow for self-hosting, Weights & Biases hosted. I delegated a comparison to a sub-agent."),
            (
                "side",
                "Gradient checkpointing trades compute for memory by recomputing activations in the backward pass; gradient checkpointing is supported by torch.utils.checkpoint.",
            ),
        ],
    ),
    # ---------------------------------------------------------------- blog
    dict(
        name="rss-feed",
        project=BLOG,
        day=22,
        messages=[
            ("u", "the RSS feed validator says the feed has invalid dates"),
            (
                "a",
                "Hugo's default RSS template uses the page date, and posts without a date field get 0001-01-01. I added dates to the front matter and set `rssLimit = 20` in config.",
            ),
            ("a", "The feed validates now; the pubDate is RFC 822 as RSS requires."),
        ],
    ),
    dict(
        name="lazy-images",
        project=BLOG,
        day=24,
        messages=[
            ("u", "pages with many photos load slowly on mobile"),
            (
                "a",
                'Added `loading="lazy"` and explicit width/height to every img via a render hook, and Hugo image processing now generates 480/960/1600 px WebP versions used in srcset.',
            ),
            ("a", "Largest contentful paint went from 4.1s to 1.6s on the gallery page."),
        ],
    ),
    dict(
        name="api-error-noise",
        project=BLOG,
        day=26,
        messages=[
            ("u", "fix the typo in the about page"),
            ("n", "API Error: 429 rate limit exceeded, please retry"),
            ("n", "Limit reached: your rate limit resets at 5pm"),
            ("a", "Fixed the typo: 'recieve' is now 'receive' on the about page."),
        ],
    ),
]

#: Queries with labels: relevant (any one is a hit), passing (mentions only), must_not (never shown).
QUERIES: list[dict] = [
    dict(
        q="flaky fixture",
        relevant=["flaky-fixture", "flaky-fixture-earlier"],
        passing=["fixture-json-passing"],
        must_not=[],
    ),
    dict(
        q="intermittent test failure database",
        relevant=["flaky-fixture", "flaky-fixture-earlier"],
        passing=["fixture-json-passing"],
    ),
    dict(
        q="tests fail depending on order because rows leak between tests",
        relevant=["flaky-fixture", "flaky-fixture-earlier"],
        kind="paraphrase",
    ),
    dict(q="flakey fixure", relevant=["flaky-fixture", "flaky-fixture-earlier"], kind="typo"),
    dict(
        q="migrating postgres schema",
        relevant=["alembic-migration"],
        passing=["readme-postgres-passing"],
        kind="stemming",
    ),
    dict(q="postgress migration", relevant=["alembic-migration"], passing=["readme-postgres-passing"], kind="typo"),
    dict(q="postgres", relevant=["alembic-migration"], passing=["readme-postgres-passing"]),
    dict(q="backfill column", relevant=["alembic-migration"]),
    dict(q="jwt refresh token", relevant=["jwt-auth"]),
    dict(q="authentication", relevant=["jwt-auth"], kind="synonym"),
    dict(q="rotating the signing secret", relevant=["jwt-auth"], kind="stemming"),
    dict(q="slow orders endpoint", relevant=["n-plus-one"]),
    dict(q="too many sql queries lazy loading", relevant=["n-plus-one"]),
    dict(q="redis cache invalidation", relevant=["redis-cache"]),
    dict(q="caching", require=["redis"], relevant=["redis-cache"], kind="require"),
    dict(q="stripe webhook signature", relevant=["stripe-webhook"], must_not=["pip-freeze-noise"]),
    dict(q="celery", relevant=["celery-retries"], must_not=["pip-freeze-noise"]),
    dict(q="retry with exponential backoff", relevant=["celery-retries", "websocket-reconnect"]),
    dict(q="rate limit", relevant=["rate-limit"], must_not=["api-error-noise"]),
    dict(q="token bucket", relevant=["rate-limit"]),
    dict(q="infinite render loop", relevant=["useeffect-loop"]),
    dict(q="component keeps rendering forever", relevant=["useeffect-loop"], kind="paraphrase"),
    dict(q="vite path alias", relevant=["vite-alias"]),
    dict(q="websocket reconnect", relevant=["websocket-reconnect"], passing=["websocket-passing"]),
    dict(q="websocket", relevant=["websocket-reconnect"], passing=["websocket-passing"]),
    dict(q="dark mode", relevant=["dark-mode"]),
    dict(q="flaky playwright test", relevant=["playwright-flaky"]),
    dict(
        q="flaky",
        exclude=["fixture"],
        relevant=["playwright-flaky"],
        must_not=["flaky-fixture", "flaky-fixture-earlier"],
        kind="exclude",
    ),
    dict(q="chrome devtools", relevant=["chrome-devtools-profiling"], passing=["css-grid-chrome-passing"]),
    dict(q="chrome", relevant=["chrome-devtools-profiling"], passing=["css-grid-chrome-passing"]),
    dict(q="memory leak", relevant=["chrome-devtools-profiling"]),
    dict(q="crashloopbackoff", relevant=["crashloop", "crashloop-again"]),
    dict(q="k8s pod keeps restarting", relevant=["crashloop", "crashloop-again"], kind="synonym"),
    dict(q="terraform state lock", relevant=["terraform-lock"], must_not=["terraform-recall"]),
    dict(q="shrink docker image", relevant=["docker-multistage"], passing=["docker-passing"]),
    dict(q='"multi-stage build"', relevant=["docker-multistage"], kind="phrase"),
    dict(q="docker", relevant=["docker-multistage"], passing=["docker-passing"]),
    dict(q="github actions cache", relevant=["gha-cache"]),
    dict(q="ci pipeline slow", relevant=["gha-cache"], kind="synonym"),
    dict(q="cuda out of memory", relevant=["cuda-oom"], must_not=["cuda-oom-fork"]),
    dict(q="gradient accumulation", relevant=["cuda-oom"], must_not=["cuda-oom-fork"]),
    dict(
        q="gpu ran out of memory during training", relevant=["cuda-oom"], must_not=["cuda-oom-fork"], kind="paraphrase"
    ),
    dict(q="pandas merge duplicate rows", relevant=["pandas-merge"]),
    dict(q="reproducible training runs", relevant=["seeds"], kind="stemming"),
    dict(q="gradient checkpointing", relevant=[], must_not=["subagent-checkpointing"]),
    dict(q="rss feed dates", relevant=["rss-feed"]),
    dict(q="lazy loading images", relevant=["lazy-images"]),
    dict(q="photos load slowly on phones", relevant=["lazy-images"], kind="paraphrase"),
    dict(q="s3 bucket versioning", relevant=["terraform-recall"]),
    dict(q="+redis -lua", relevant=["redis-cache"], must_not=["rate-limit"], kind="exclude"),
]

#: Queries over the real transcripts in ../shared/data/claude_code (session ids as they are).
REAL_QUERIES: list[dict] = [
    dict(
        q="mix phx.server doesnt start",
        relevant=["55604662-cf2a-4331-851a-ec234028f8ca"],
        project="/home/marco/projects/spotter",
    ),
    dict(q="opentelemetry setup", relevant=["ae4a77f8-aedd-4bc1-888f-c94edc91af04"]),
    dict(q="credo dialyzer mix_audit", relevant=["491e126e-1e71-469c-ade2-fcc8af567c74"]),
    dict(q="xterm.js scrolling tmux", relevant=["d6e0bada-1959-4eec-a9d2-0bfade768d8f"]),
    dict(q="python decorators", relevant=["test_session"]),
    dict(q="decorator that takes parameters", relevant=["test_session"]),
]
