"""Contains all the data models used in inputs/outputs"""

from .ai_body import AiBody
from .ai_move_request import AiMoveRequest
from .ai_request import AiRequest
from .ai_side import AiSide
from .analyze_request import AnalyzeRequest
from .analyze_response import AnalyzeResponse
from .answer_source import AnswerSource
from .batch_item import BatchItem
from .batch_request import BatchRequest
from .batch_request_items_item import BatchRequestItemsItem
from .batch_response import BatchResponse
from .change_request import ChangeRequest
from .clock_body import ClockBody
from .clock_view import ClockView
from .create_session_request import CreateSessionRequest
from .depth_event import DepthEvent
from .field_problem import FieldProblem
from .game_body import GameBody
from .game_limits import GameLimits
from .game_status import GameStatus
from .games_response import GamesResponse
from .health_response import HealthResponse
from .limits_response import LimitsResponse
from .line_body import LineBody
from .mark import Mark
from .move_body import MoveBody
from .move_request import MoveRequest
from .move_review import MoveReview
from .position_request import PositionRequest
from .position_response import PositionResponse
from .problem import Problem
from .proven import Proven
from .record_body import RecordBody
from .record_format import RecordFormat
from .result_kind import ResultKind
from .search_request import SearchRequest
from .search_response import SearchResponse
from .session_response import SessionResponse
from .side import Side
from .side_summary import SideSummary
from .stop_reason import StopReason
from .stream_event import StreamEvent

__all__ = (
    "AiBody",
    "AiMoveRequest",
    "AiRequest",
    "AiSide",
    "AnalyzeRequest",
    "AnalyzeResponse",
    "AnswerSource",
    "BatchItem",
    "BatchRequest",
    "BatchRequestItemsItem",
    "BatchResponse",
    "ChangeRequest",
    "ClockBody",
    "ClockView",
    "CreateSessionRequest",
    "DepthEvent",
    "FieldProblem",
    "GameBody",
    "GameLimits",
    "GamesResponse",
    "GameStatus",
    "HealthResponse",
    "LimitsResponse",
    "LineBody",
    "Mark",
    "MoveBody",
    "MoveRequest",
    "MoveReview",
    "PositionRequest",
    "PositionResponse",
    "Problem",
    "Proven",
    "RecordBody",
    "RecordFormat",
    "ResultKind",
    "SearchRequest",
    "SearchResponse",
    "SessionResponse",
    "Side",
    "SideSummary",
    "StopReason",
    "StreamEvent",
)
