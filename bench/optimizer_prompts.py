"""Realistic verbose, tool-heavy agent prompts for bench/optimizer_bench.py.

The tools imitate what public MCP servers expose (filesystem, GitHub, web search, SQL, Slack, browser,
calendar, docs lookup): long descriptions with usage advice, examples, markdown and argument sections, and
parameter schemas with descriptions and examples. The text is written for this bench; none is copied from a
server. Each prompt pairs a task that carries a constraint with a short trajectory of tool calls and results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentcore.messages import ToolCall, ToolSpec


def _param(kind: str, description: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "description": description, **extra}


def _spec(name: str, description: str, required: list[str], **props: dict[str, Any]) -> ToolSpec:
    return ToolSpec(name, description, {"type": "object", "properties": props, "required": required})


FS = [
    _spec(
        "read_file",
        "Read the complete contents of a file from the file system. This tool allows you to read text "
        "files in a variety of encodings and it provides detailed error messages if the file cannot be "
        "read for any reason. Use this tool when you need to examine the contents of a single file. It is important to "
        "note that this tool only works within the allowed directories.\n\nExamples:\n"
        '- read_file(path="/workspace/README.md")\n- read_file(path="src/app/main.py")\n\n'
        "Returns: the file content as a string.",
        ["path"],
        path=_param("string", "The path of the file to read, e.g. 'docs/intro.md'.", examples=["notes.txt"]),
    ),
    _spec(
        "write_file",
        "Create a new file or completely overwrite an existing file with new content. Please use this tool "
        "with caution, as it will overwrite existing files without any warning. It handles text content with "
        "proper encoding. Only works within allowed directories.\n\nExample:\n"
        '```\nwrite_file(path="out/report.md", content="# Report\\n...")\n```',
        ["path", "content"],
        path=_param("string", "The path of the file to write (for example 'out/summary.txt')."),
        content=_param("string", "The full text content to write into the file."),
    ),
    _spec(
        "edit_file",
        "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. "
        "Returns a git-style diff showing the changes that were made. This tool is designed to make small, "
        "targeted changes (e.g. renaming a variable, fixing a typo, updating a version number). Please note "
        "that the old text must match exactly, including whitespace. Only works within allowed directories."
        '\n\n**Example:** edit_file(path="setup.cfg", edits=[{"oldText": "version = 1.0", '
        '"newText": "version = 1.1"}])',
        ["path", "edits"],
        path=_param("string", "The path of the file to edit."),
        edits=_param(
            "array",
            "The list of edits to apply, in order. Each edit has oldText and newText.",
            items={
                "type": "object",
                "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
            },
        ),
        dryRun=_param(
            "boolean", "Preview the changes using git-style diff format without applying them.", default=False
        ),
    ),
    _spec(
        "list_directory",
        "Get a detailed listing of all files and directories in a specified path. Results clearly "
        "distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is "
        "essential for understanding directory structure and finding specific files within a directory. "
        "Only works within allowed directories.\n\nExample output:\n[DIR] src\n[FILE] README.md\n[FILE] setup.py",
        ["path"],
        path=_param("string", "The directory to list, e.g. '.' or 'src/components'."),
    ),
    _spec(
        "search_files",
        "Recursively search for files and directories matching a pattern. Searches through all "
        "subdirectories from the starting path. The search is case-insensitive and matches partial names. "
        "Returns full paths to all matching items. Great for finding files when you don't know their exact "
        'location. Only searches within allowed directories.\n\nExamples:\n- search_files(path=".", '
        'pattern="*.py")\n- search_files(path="docs", pattern="install", excludePatterns=["*.tmp"])',
        ["path", "pattern"],
        path=_param("string", "The directory to start searching from."),
        pattern=_param("string", "The glob-style pattern to match (e.g. '*.md', 'test_*')."),
        excludePatterns=_param("array", "Patterns to exclude from the results.", items={"type": "string"}, default=[]),
    ),
    _spec(
        "get_file_info",
        "Retrieve detailed metadata about a file or directory. Returns comprehensive information including "
        "size, creation time, last modified time, permissions, and type. This tool is perfect for "
        "understanding file characteristics without reading the actual content. Only works within allowed "
        "directories.",
        ["path"],
        path=_param("string", "The path of the file or directory to inspect."),
    ),
]

GITHUB = [
    _spec(
        "search_issues",
        "Search for issues and pull requests across GitHub repositories using GitHub's issue search syntax. "
        "This tool lets you find issues by keywords, labels, state, author, assignee and more. It is very "
        "useful for triaging and for finding duplicates before you open a new issue.\n\n## Query syntax\n"
        "The query supports qualifiers, for example `repo:owner/name`, `is:open`, `label:bug`, "
        '`author:octocat`.\n\n## Examples\n- search_issues(q="repo:psf/requests is:open label:bug")\n'
        '- search_issues(q="memory leak in:title", sort="comments")\n\nReturns: a JSON list of matching '
        "issues with number, title, state, labels and URL. Results are paginated (max 100 per page).",
        ["q"],
        q=_param("string", "The search query using GitHub search syntax, e.g. 'repo:a/b is:open'."),
        sort=_param("string", "Sort field.", enum=["comments", "reactions", "created", "updated"]),
        order=_param("string", "Sort order, ascending or descending.", enum=["asc", "desc"], default="desc"),
        per_page=_param("integer", "Results per page (max 100).", default=30),
    ),
    _spec(
        "create_issue",
        "Create a new issue in a GitHub repository. Use this tool to report bugs, request features or track "
        "tasks. Please make sure that you have searched for duplicates first. The body supports GitHub "
        "Flavored Markdown, so you can include code blocks, checklists and links.\n\nExample:\n"
        'create_issue(owner="octo", repo="hello", title="Crash on start", body="Steps to reproduce: ...", '
        'labels=["bug"])\n\nReturns: the created issue, including its number and URL.',
        ["owner", "repo", "title"],
        owner=_param("string", "Repository owner (user or organisation), e.g. 'microsoft'."),
        repo=_param("string", "Repository name, e.g. 'vscode'."),
        title=_param("string", "Issue title. Keep it short and descriptive."),
        body=_param("string", "Issue body in Markdown."),
        labels=_param("array", "Labels to apply (they must already exist).", items={"type": "string"}),
    ),
    _spec(
        "get_file_contents",
        "Get the contents of a file or directory from a GitHub repository. This tool can be used to read "
        "source code, configuration and documentation without cloning the repository. For directories it "
        "returns a listing. It is important to note that files larger than 1 MB are not returned.\n\n"
        'Examples:\n- get_file_contents(owner="python", repo="cpython", path="README.rst")\n'
        '- get_file_contents(owner="torvalds", repo="linux", path="kernel", ref="v6.1")',
        ["owner", "repo", "path"],
        owner=_param("string", "Repository owner."),
        repo=_param("string", "Repository name."),
        path=_param("string", "Path to the file or directory, e.g. 'src/index.ts'."),
        ref=_param("string", "Branch, tag or commit SHA (defaults to the default branch)."),
    ),
    _spec(
        "create_pull_request",
        "Create a new pull request in a GitHub repository. Use this when your changes are pushed to a branch "
        "and ready for review. You can mark the pull request as a draft if the work is still in progress. "
        "Note that the head branch must exist and contain commits that are not in the base branch.\n\n"
        'Example:\ncreate_pull_request(owner="me", repo="app", title="Fix login", head="fix-login", '
        'base="main", draft=true)',
        ["owner", "repo", "title", "head", "base"],
        owner=_param("string", "Repository owner."),
        repo=_param("string", "Repository name."),
        title=_param("string", "Pull request title."),
        head=_param("string", "The branch that contains your changes (e.g. 'feature-x')."),
        base=_param("string", "The branch you want to merge into (e.g. 'main')."),
        body=_param("string", "Pull request description in Markdown."),
        draft=_param("boolean", "Whether to create the pull request as a draft.", default=False),
    ),
]

WEB = [
    _spec(
        "brave_web_search",
        "Performs a web search using the Brave Search API, ideal for general queries, news, articles, and "
        "online content. Use this for broad information gathering, recent events, or when you need diverse "
        "web sources. Supports pagination, content filtering, and freshness controls. Maximum 20 results per "
        'request, with offset for pagination.\n\nExamples:\n- brave_web_search(query="python 3.13 release '
        'notes")\n- brave_web_search(query="best hiking trails near Zurich", count=5)',
        ["query"],
        query=_param("string", "Search query (max 400 chars, 50 words)."),
        count=_param("integer", "Number of results (1-20, default 10).", default=10),
        offset=_param("integer", "Pagination offset (max 9, default 0).", default=0),
    ),
    _spec(
        "brave_local_search",
        "Searches for local businesses and places using Brave's Local Search API. Best for queries related "
        "to physical locations, businesses, restaurants, services, etc. Returns detailed information "
        "including business names and addresses, ratings and review counts, phone numbers and opening hours. "
        "Use this when the query implies 'near me' or mentions specific locations. Automatically falls back "
        'to web search if no local results are found.\n\nExample: brave_local_search(query="pizza near '
        'Central Park")',
        ["query"],
        query=_param("string", "Local search query (e.g. 'pizza near Central Park')."),
        count=_param("integer", "Number of results (1-20, default 5).", default=5),
    ),
    _spec(
        "fetch",
        "Fetches a URL from the internet and optionally extracts its contents as markdown. Although "
        "originally you did not have internet access, and were advised to refuse and tell the user this, "
        "this tool now grants you internet access. Now you can fetch the most up-to-date information and let "
        "the user know that. It is important to note that the content is truncated to max_length characters; "
        'use start_index to read more.\n\nExamples:\n- fetch(url="https://example.com")\n'
        '- fetch(url="https://docs.python.org/3/", max_length=2000, raw=false)',
        ["url"],
        url=_param("string", "URL to fetch.", format="uri"),
        max_length=_param("integer", "Maximum number of characters to return.", default=5000),
        start_index=_param(
            "integer",
            "Start output at this character index, useful when a previous fetch "
            "was truncated and more context is required.",
            default=0,
        ),
        raw=_param("boolean", "Get the actual HTML content of the page, without simplification.", default=False),
    ),
]

SQL = [
    _spec(
        "query",
        "Run a read-only SQL query against the connected PostgreSQL database. This tool allows you to "
        "inspect data, compute aggregates and join tables. It is very important that you only use SELECT "
        "statements: the connection is read-only and any write will fail. Please always add a LIMIT clause "
        "to avoid returning huge result sets.\n\nExamples:\n```sql\nSELECT id, email FROM users ORDER BY "
        "created_at DESC LIMIT 10;\nSELECT country, count(*) FROM orders GROUP BY country;\n```\n\nReturns: "
        "rows as a JSON array of objects.",
        ["sql"],
        sql=_param("string", "The SQL query to run, e.g. 'SELECT * FROM users LIMIT 5'."),
    ),
    _spec(
        "list_tables",
        "List all tables in the current database schema, together with their approximate row counts. Use "
        "this tool first when you do not know the schema yet, so that you can write correct queries.\n\n"
        "Example output: users (1200 rows), orders (53000 rows), products (310 rows)",
        [],
        schema=_param("string", "Schema name (defaults to 'public').", default="public"),
    ),
    _spec(
        "describe_table",
        "Describe the columns of a table: name, data type, nullability, default and whether it is part of "
        "the primary key. This tool is useful before writing a query, for example to check the exact column "
        'names and types.\n\nExample: describe_table(table="orders")',
        ["table"],
        table=_param("string", "The table to describe, e.g. 'orders'."),
    ),
]

SLACK = [
    _spec(
        "slack_post_message",
        "Post a new message to a Slack channel. This tool allows you to send text messages formatted with "
        "Slack's mrkdwn syntax (*bold*, _italic_, `code`, <url|links>). Please make sure that the bot has "
        "been invited to the channel first, otherwise the call will fail with not_in_channel.\n\nExample:\n"
        'slack_post_message(channel_id="C0123456", text="Deploy finished :tada:")',
        ["channel_id", "text"],
        channel_id=_param("string", "The ID of the channel to post to (e.g. 'C0123456')."),
        text=_param("string", "The message text to post."),
    ),
    _spec(
        "slack_list_channels",
        "List public channels in the workspace with pagination. Returns channel IDs, names, topics and "
        "member counts. Use this tool to find the ID of a channel when you only know its name.\n\n"
        "Example: slack_list_channels(limit=100)",
        [],
        limit=_param("integer", "Maximum number of channels to return (default 100, max 200).", default=100),
        cursor=_param("string", "Pagination cursor for the next page of results."),
    ),
    _spec(
        "slack_get_channel_history",
        "Get recent messages from a channel, newest first. This tool is useful to catch up on a discussion "
        "or to find a message to reply to. Each message includes the user, the text, the timestamp and the "
        'thread information, if any.\n\nExample: slack_get_channel_history(channel_id="C0123456", '
        "limit=20)",
        ["channel_id"],
        channel_id=_param("string", "The ID of the channel."),
        limit=_param("integer", "Number of messages to retrieve (default 10).", default=10),
    ),
]

BROWSER = [
    _spec(
        "browser_navigate",
        "Navigate the browser to a URL. This tool opens the page in the current tab and waits until the page "
        "has loaded (the load event). After navigating, use browser_snapshot to see the page content.\n\n"
        'Example: browser_navigate(url="https://news.ycombinator.com")',
        ["url"],
        url=_param("string", "The URL to navigate to."),
    ),
    _spec(
        "browser_snapshot",
        "Capture an accessibility snapshot of the current page. This is better than a screenshot, as it "
        "returns the structure of the page as text, with a ref for every element that you can click or type "
        "into. It is important to take a new snapshot after every action, because refs change when the page "
        "changes.",
        [],
    ),
    _spec(
        "browser_click",
        "Perform a click on a web page element. You must pass the exact ref of the element from the latest "
        "page snapshot, together with a human-readable description of the element that is used to obtain "
        'permission to interact with it.\n\nExample: browser_click(element="Login button", ref="e12")',
        ["element", "ref"],
        element=_param("string", "Human-readable element description used to obtain permission."),
        ref=_param("string", "Exact target element reference from the page snapshot."),
    ),
    _spec(
        "browser_type",
        "Type text into an editable element, such as an input field or a text area. Optionally press Enter "
        "after typing, for example to submit a search form. You must pass the exact ref from the latest "
        'snapshot.\n\nExample: browser_type(element="Search box", ref="e5", text="llama.cpp", '
        "submit=true)",
        ["element", "ref", "text"],
        element=_param("string", "Human-readable element description."),
        ref=_param("string", "Exact target element reference from the page snapshot."),
        text=_param("string", "Text to type into the element."),
        submit=_param("boolean", "Whether to press Enter after typing.", default=False),
    ),
]

CALENDAR = [
    _spec(
        "list_events",
        "List events from the user's calendar within a time range. This tool returns the title, start and "
        "end time, location, attendees and description of each event. Times are in ISO 8601 format "
        "with a time zone offset. Please note that recurring events are expanded into single instances.\n\nExample:\n"
        'list_events(time_min="2025-03-01T00:00:00Z", time_max="2025-03-08T00:00:00Z")',
        ["time_min", "time_max"],
        time_min=_param("string", "Start of the range (ISO 8601), e.g. '2025-03-01T00:00:00Z'."),
        time_max=_param("string", "End of the range (ISO 8601)."),
        calendar_id=_param("string", "Calendar ID (defaults to 'primary').", default="primary"),
    ),
    _spec(
        "create_event",
        "Create a new event in the user's calendar. Use this tool to schedule meetings, reminders or "
        "appointments. You can invite attendees by email; they receive an invitation automatically. It is "
        "important to always confirm the time zone with the user if it is ambiguous.\n\nExamples:\n"
        '- create_event(summary="1:1 with Ana", start="2025-03-03T10:00:00+01:00", '
        'end="2025-03-03T10:30:00+01:00")\n- create_event(summary="Team lunch", start="...", end="...", '
        'attendees=["bob@example.com"])',
        ["summary", "start", "end"],
        summary=_param("string", "Title of the event."),
        start=_param("string", "Start time (ISO 8601 with offset)."),
        end=_param("string", "End time (ISO 8601 with offset)."),
        attendees=_param("array", "Email addresses of attendees.", items={"type": "string"}),
        location=_param("string", "Where the event takes place."),
    ),
    _spec(
        "send_email",
        "Send an email on behalf of the user. This tool allows you to send plain-text or HTML emails to one "
        "or more recipients, with optional CC and BCC. Please make sure to double-check the recipients "
        "before sending, because sent emails cannot be recalled.\n\nExample:\n"
        'send_email(to=["ana@example.com"], subject="Notes", body="Hi Ana, ...")',
        ["to", "subject", "body"],
        to=_param("array", "Recipient email addresses.", items={"type": "string"}),
        subject=_param("string", "Subject line."),
        body=_param("string", "Body of the email (plain text or HTML)."),
        cc=_param("array", "CC recipients.", items={"type": "string"}),
    ),
]

DOCS = [
    _spec(
        "resolve_library_id",
        "Resolves a package or product name to a documentation library ID and returns a list of matching "
        "libraries. You MUST call this function before get_library_docs to obtain a valid library ID, unless "
        "the user explicitly provides one in the format '/org/project'.\n\nSelection process:\n"
        "1. Analyze the query to understand what library the user is looking for\n2. Return the most "
        "relevant match based on name similarity, description relevance, documentation coverage and trust "
        "score\n\nResponse format:\n- Return the selected library ID in a clearly marked section\n- Explain "
        "briefly why this library was chosen\n- If multiple good matches exist, acknowledge this but proceed "
        'with the most relevant one\n\nExample: resolve_library_id(libraryName="next.js") -> '
        "'/vercel/next.js'",
        ["libraryName"],
        libraryName=_param("string", "Library name to search for, e.g. 'react' or 'pydantic'."),
    ),
    _spec(
        "get_library_docs",
        "Fetches up-to-date documentation for a library. You must call resolve_library_id first to obtain "
        "the exact library ID required by this tool. The documentation is returned as markdown snippets with "
        "code examples, focused on the topic if you give one. Higher token budgets return more context but "
        'cost more.\n\nExamples:\n- get_library_docs(libraryID="/vercel/next.js", topic="routing")\n'
        '- get_library_docs(libraryID="/pydantic/pydantic", topic="validators", tokens=3000)',
        ["libraryID"],
        libraryID=_param("string", "Exact library ID, e.g. '/mongodb/docs' (from resolve_library_id)."),
        topic=_param("string", "Topic to focus the documentation on (e.g. 'hooks', 'routing')."),
        tokens=_param("integer", "Maximum number of tokens of documentation to return (default 5000).", default=5000),
    ),
]

CALC = [
    _spec(
        "calculator",
        "Evaluate an arithmetic expression and return the exact result. This tool supports +, -, *, /, **, "
        "parentheses and the functions sqrt, log, sin and cos. It is important to use this tool for every "
        "calculation instead of computing in your head, since language models are unreliable at arithmetic."
        '\n\nExamples:\n- calculator(expression="17 * 23")\n- calculator(expression="sqrt(2) * 10")',
        ["expression"],
        expression=_param("string", "The arithmetic expression to evaluate, e.g. '(3 + 4) * 2'."),
    ),
]

VERBOSE_INSTRUCTIONS = (
    "You are a helpful, careful and precise assistant that completes tasks for the user by calling tools. "
    "Please note that you should always think about which tool is the most appropriate before calling it. "
    "It is important to use the tools instead of guessing. It is important to note that you must never "
    "invent file names, IDs or URLs. Please make sure that your final answer is complete and addresses every "
    "part of the task. In order to save time, basically avoid calling the same tool twice with the same "
    "arguments. Feel free to ask for clarification only if the task is truly ambiguous."
)


@dataclass(frozen=True)
class BenchPrompt:
    name: str
    tools: list[ToolSpec]
    task: str
    steps: list[tuple[ToolCall, str]] = field(default_factory=list)
    instructions: str = VERBOSE_INSTRUCTIONS
    extra_blocks: tuple[str, ...] = ()


EXPERIENCE = (
    "Experience from earlier runs: read a file before editing it; list the directory when a path is "
    "unknown; keep answers short and cite the files you used."
)

PROMPTS = [
    BenchPrompt(
        "fs-summary",
        FS,
        "Summarise README.md in the workspace and answer in French, in under 50 words.",
        [
            (
                ToolCall("list_directory", {"path": "."}),
                "[FILE] README.md\n[FILE] setup.py\n[DIR] src\n[DIR] docs",
            )
        ],
    ),
    BenchPrompt(
        "fs-edit",
        FS,
        "Bump the version in setup.cfg from 1.2.0 to 1.3.0, but do not touch any other file.",
        [
            (ToolCall("read_file", {"path": "setup.cfg"}), "[metadata]\nname = demo\nversion = 1.2.0\n"),
            (
                ToolCall(
                    "edit_file",
                    {
                        "path": "setup.cfg",
                        "edits": [{"oldText": "version = 1.2.0", "newText": "version = 1.3.0"}],
                    },
                ),
                "--- a/setup.cfg\n+++ b/setup.cfg\n-version = 1.2.0\n+version = 1.3.0",
            ),
        ],
        extra_blocks=(EXPERIENCE, EXPERIENCE),
    ),
    BenchPrompt(
        "github-triage",
        GITHUB + FS,
        "Find open bugs about 'timeout' in psf/requests and list the three most commented, but not ones "
        "labelled 'wontfix'.",
        [
            (
                ToolCall("search_issues", {"q": "repo:psf/requests is:open label:bug timeout", "sort": "comments"}),
                '[{"number": 6012, "title": "Timeout not respected with proxies", "comments": 41}, '
                '{"number": 5871, '
                '"title": "ReadTimeout on large downloads", "comments": 33}]',
            )
        ],
    ),
    BenchPrompt(
        "web-research",
        WEB + CALC,
        "What is the population of Zurich divided by the population of Geneva? Answer in under 50 words.",
        [
            (
                ToolCall("brave_web_search", {"query": "population of Zurich 2024"}),
                "Zurich - Wikipedia: Zurich is the largest city in Switzerland with a population of 421,878 "
                "(2023). It is the capital of the canton of Zurich.",
            ),
            (
                ToolCall("brave_web_search", {"query": "population of Geneva 2024"}),
                "Geneva - Wikipedia: Geneva is the second-most populous city in Switzerland, with 203,856 "
                "inhabitants (2023).",
            ),
        ],
    ),
    BenchPrompt(
        "sql-report",
        SQL + CALC,
        "How many orders were placed from Germany last month? Use only SELECT queries and answer with the number only.",
        [
            (ToolCall("list_tables", {}), "users (1200 rows), orders (53000 rows), products (310 rows)"),
            (
                ToolCall("describe_table", {"table": "orders"}),
                "id integer pk, user_id integer, country text, total numeric, created_at timestamptz",
            ),
        ],
    ),
    BenchPrompt(
        "slack-digest",
        SLACK + CALENDAR,
        "Post a digest of today's meetings to #team, but not on Sundays, and keep it under 50 words.",
        [(ToolCall("slack_list_channels", {"limit": 100}), "C01 general, C02 team, C03 random")],
    ),
    BenchPrompt(
        "browser-form",
        BROWSER + WEB,
        "Search llama.cpp on Hacker News and report the title of the top result, in French.",
        [
            (
                ToolCall("browser_navigate", {"url": "https://news.ycombinator.com"}),
                "Navigated; title: Hacker News",
            ),
            (
                ToolCall("browser_snapshot", {}),
                "- link 'Hacker News' [ref=e1]\n- textbox 'search' [ref=e5]\n"
                "- link 'new' [ref=e2]\n- link 'past' [ref=e3]",
            ),
        ],
    ),
    BenchPrompt(
        "calendar-plan",
        CALENDAR + SLACK,
        "Schedule a 30-minute sync with ana@example.com next Tuesday at 10:00 Zurich time, but not before "
        "her 9:30 meeting ends.",
        [
            (
                ToolCall(
                    "list_events",
                    {"time_min": "2025-03-04T00:00:00+01:00", "time_max": "2025-03-05T00:00:00+01:00"},
                ),
                '[{"summary": "Standup", "start": "09:00", "end": "09:30"}]',
            )
        ],
    ),
    BenchPrompt(
        "docs-lookup",
        DOCS + WEB + FS,
        "Explain how to write a field validator in pydantic v2 in under 50 words, with one code line.",
        [
            (
                ToolCall("resolve_library_id", {"libraryName": "pydantic"}),
                "Selected: /pydantic/pydantic (trust "
                "9.6). Other matches: /pydantic/pydantic-settings, /pydantic/logfire",
            )
        ],
    ),
    BenchPrompt(
        "all-tools",
        FS + GITHUB + WEB + SQL + SLACK + CALC,
        "Count the open issues labelled 'bug' in our repo acme/shop and post the number to #team, in French.",
        [
            (ToolCall("search_issues", {"q": "repo:acme/shop is:open label:bug"}), '{"total_count": 17}'),
            (ToolCall("search_issues", {"q": "repo:acme/shop is:open label:bug"}), '{"total_count": 17}'),
        ],
    ),
]
