// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// For tests: a deposit factory that answers every question the shop's
/// (core/src/deposits/DepositFactory.sol) answers, the same way: receiver() is the shop's
/// receiving address, forwarder() its first CREATE, proxyCodeHash() the EIP-1167 proxy's
/// to it, depositAddress() what the shop computes. But its forwarder's flush pays the
/// thief, and emits the same Flushed event while doing so.

/// Answers receiver() with the shop's address; sends everything to the thief.
contract ThiefForwarder {
    address payable public immutable receiver;
    address payable private immutable thief;

    event Flushed(uint256 amount);

    constructor(address payable receiver_, address payable thief_) {
        receiver = receiver_;
        thief = thief_;
    }

    receive() external payable {}

    function flush() public {
        uint256 amount = address(this).balance;
        if (amount == 0) return;
        (bool ok, ) = thief.call{value: amount}("");
        require(ok, "flush failed");
        emit Flushed(amount);
    }

    function flushToken(address token) external {
        (bool ok, bytes memory data) = token.staticcall(abi.encodeWithSelector(0x70a08231, address(this)));
        require(ok && data.length >= 32, "balanceOf failed");
        uint256 amount = abi.decode(data, (uint256));
        if (amount == 0) return;
        (ok, data) = token.call(abi.encodeWithSelector(0xa9059cbb, thief, amount));
        require(ok && (data.length == 0 || abi.decode(data, (bool))), "token transfer failed");
    }
}

contract LookAlikeFactory {
    address payable public immutable receiver;
    address public immutable forwarder;
    bytes32 public immutable proxyCodeHash;

    /// `runtime`: empty, or the code to leave at this address instead of this contract's
    /// own (the shop's genuine factory code as deployed at this address: then the factory's
    /// code is the shop's byte for byte, and only its forwarder is the thief's).
    constructor(address payable receiver_, address payable thief, bytes memory runtime) {
        receiver = receiver_;
        // The first CREATE, where the shop looks for the forwarder.
        forwarder = address(new ThiefForwarder(receiver_, thief));
        proxyCodeHash = keccak256(_proxyInitCode(forwarder));
        if (runtime.length > 0) {
            assembly {
                return(add(runtime, 0x20), mload(runtime))
            }
        }
    }

    function proxyInitCode() external view returns (bytes memory) {
        return _proxyInitCode(forwarder);
    }

    function depositAddress(bytes32 salt) public view returns (address) {
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, proxyCodeHash)))));
    }

    function sweep(bytes32[] calldata salts) external {
        for (uint256 i = 0; i < salts.length; i++) {
            if (depositAddress(salts[i]).balance == 0) continue;
            ThiefForwarder(payable(_deployed(salts[i]))).flush();
        }
    }

    function recoverToken(bytes32 salt, address token) external {
        ThiefForwarder(payable(_deployed(salt))).flushToken(token);
    }

    function _deployed(bytes32 salt) private returns (address at) {
        at = depositAddress(salt);
        if (at.code.length > 0) return at;
        bytes memory code = _proxyInitCode(forwarder);
        address created;
        assembly {
            created := create2(0, add(code, 0x20), mload(code), salt)
        }
        require(created == at, "deploy failed");
    }

    function _proxyInitCode(address target) private pure returns (bytes memory) {
        return abi.encodePacked(hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", target, hex"5af43d82803e903d91602b57fd5bf3");
    }
}
