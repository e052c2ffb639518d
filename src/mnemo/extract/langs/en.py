"""English word lists."""

from __future__ import annotations

from mnemo.extract.lexicon import Lexicon, VerbRule, phrases, words

_NUMBERS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty"
).split()

EN = Lexicon(
    code="en",
    profile=words(
        "the and is are was were i you my me we our it this that of to in at have has had do does don't "
        "what with for not but be been a an just really so he she they his her im ve ll re years old live work am "
        "thanks thank nice yeah yep lol awesome great can could would should where when who why how which there "
        "their some lives works moved born"
    ),
    first_person=words("i we"),
    first_object=words("me us myself"),
    possessive=words("my our"),
    second_person=words("you your yours"),
    he=words("he him"),
    she=words("she her"),
    they=words("they them"),
    it=words("it this that"),
    determiners=words("a an the my our your his her their its this that these those some any another"),
    function=words(
        "in at on to for from with by of about as into onto over under near since during until after before "
        "and or but nor so because though although if when while where which who whom whose that than "
        "now still already also too very just really anymore again here there then today currently "
        "is are was were be been being am 'm 's 're have has had 've 'd do does did will would can could "
        "should might may must not n't never no yes i you he she it we they me him us them"
    ),
    coordinators=words("and but or plus"),
    subordinators=words("because since so although though"),
    skip_clause=words("if when whenever unless until before after once whether"),
    negations=words("not n't never no neither nor nobody nothing"),
    negation_phrases=phrases("used to|no longer|not anymore|any more"),
    hedges=phrases(
        "maybe|perhaps|probably|possibly|i think|i guess|i believe|i suppose|kinda|kind of|sort of|"
        "not sure|i'm not sure|i am not sure|might|likely|apparently|i reckon"
    ),
    irrealis=phrases(
        "next|next year|next week|next month|tomorrow|soon|someday|want to|wanna|would like|'d like|will|'ll|"
        "going to|gonna|plan to|planning to|hope to|hoping to|"
        "wish|would|could|should|might|thinking about|thinking of|dream of|someday|one day"
    ),
    corrections=phrases("actually|correction|i meant|i mean|sorry ,|no ,|wait ,|to be precise|in fact"),
    change_markers=words("now anymore currently"),
    question_words=words("what where who whom whose when why how which"),
    question_openers=words("do does did is are was were can could would should will have has had am shall may"),
    reactions=words(
        "ok okay k cool nice great thanks thank ty lol haha hahaha wow yes yeah yep no nope sure awesome "
        "perfect right hmm hm oh ah alright fine good amazing interesting true exactly indeed got it sounds "
        "love that agreed"
    ),
    copulas=("be", "am", "is", "are", "was", "were", "'m", "'re", "'s", "been"),
    have=("have", "has", "had", "'ve", "'d", "having", "got"),
    verbs=(
        VerbRule("lives_in", ("live*", "reside*", "resided", "stay*", "based"), words("in at on")),
        VerbRule("works_at", ("work*", "employed", "intern*"), words("at for in with")),
        VerbRule("is", ("work*",), words("as")),
        VerbRule("born_in", ("born",), words("in at on")),
        VerbRule("moved_from", ("move*", "moving", "relocat*"), words("from")),
        VerbRule("lives_in", ("move*", "relocat*"), words("to into")),
        VerbRule("went_to", ("go", "goes", "went", "gone", "travel*", "flew", "fly", "been", "drove"), words("to")),
        VerbRule("went_to", ("stud*", "graduat*", "enrolled"), words("at from in")),
        VerbRule("went_to", ("visit*", "attend*", "toured"), frozenset()),
        VerbRule(
            "participated_in",
            ("participat*", "compet*", "took", "take*", "ran", "run*", "play*", "join*", "volunteer*"),
            words("in"),
        ),
        VerbRule("participated_in", ("ran", "completed", "finished", "entered", "joined"), frozenset()),
        VerbRule("works_at", ("job", "position", "internship"), words("at with"), noun=True),
        VerbRule("works_at", ("start", "started", "starting", "began"), words("at")),
        VerbRule("has", ("adopt", "adopted", "adopting"), frozenset()),
        VerbRule("owns", ("own", "owns", "owned"), frozenset()),
        VerbRule("name", ("called", "named"), frozenset()),
    ),
    numbers={w: n for n, w in enumerate(_NUMBERS)}
    | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90},
    year_words=words("year years yr yrs"),
    age_markers=words("old"),
    duration_preps=phrases("for|for the last|for the past"),
    duration_units=words("year years month months week weeks day days decade decades hour hours"),
    time_phrases=phrases(
        "yesterday|today|last night|last week|last month|last year|last summer|last winter|last spring|"
        "last fall|last weekend|this morning|this week|this year|two years ago|a year ago|years ago|"
        "a few years ago|recently|last christmas|ago"
    ),
    time_preps=words("in on during"),
    months=words("january february march april may june july august september october november december"),
    name_nouns=words("name"),
    called=("called", "named"),
    favorite=words("favorite favourite fave"),
    favorite_prefix="",
    topics={
        "color": "color",
        "colour": "color",
        "food": "food",
        "dish": "food",
        "movie": "movie",
        "film": "movie",
        "book": "book",
        "sport": "sport",
        "song": "song",
        "band": "band",
        "animal": "animal",
        "drink": "drink",
        "season": "season",
        "city": "city",
        "game": "game",
        "artist": "artist",
        "singer": "singer",
        "author": "author",
        "team": "team",
    },
    friend_words=words("friend friends buddy pal bestie"),
    friend_preps=words("with"),
    family=words(
        "mother mom mum father dad dad's parents sister brother sibling siblings wife husband partner son "
        "daughter kids children kid child boyfriend girlfriend grandma grandmother grandpa grandfather "
        "aunt uncle cousin niece nephew fiance fiancee roommate boss colleague coworker neighbor neighbour "
        "dog cat"
    ),
    fillers=words(
        "new old small big little large huge tiny nice good lovely beautiful cute young brand younger older elder"
    ),
    relatives=words("who which whom whose"),
    name_links=words("of de"),
)
